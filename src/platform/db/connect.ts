import postgres from 'postgres';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;
/** Either the pool or a transaction: queries take this so services decide the transaction. */
export type Db = Sql | Tx;

export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // int8 (counters, seq) as numbers: every value we keep fits in 2^53.
    types: { int8: { to: 20, from: [20], parse: (v: string) => Number(v), serialize: (v: number) => String(v) } },
    connection: { application_name: 'svc' },
  });
}
