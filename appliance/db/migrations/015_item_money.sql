-- A stream's items priced as of a time (docs/decisions.md, "The read path"). In a function so that a
-- stream's read names it in one expression that PostgreSQL evaluates only for a stream that went
-- live: as a subquery of the read, its ~25 plan nodes were set up on every read, pending streams
-- included (about 100 µs of the server's CPU per read). PL/pgSQL keeps its plan per connection.
-- `rates`: rows of (item, rate, divisor) as text, exact (billing/queries.ts `ratesJson`).
create function item_money(stream_ids text[], at timestamptz, rates jsonb)
returns table (stream_id text, item text, quantity numeric, charged numeric, amount numeric)
language plpgsql stable as $$
#variable_conflict use_column
begin
  return query
    with s as (select * from streams where id = any(stream_ids)),
    used as (
      select s.id as stream_id, s.profile as item,
        coalesce((select floor(extract(epoch from sum(coalesce(p.ended_at, at) - p.started_at)))
          from publish_sessions p where p.stream_id = s.id), 0) as quantity
      from s
      union all
      select s.id, 'delivery', coalesce((select sum(d.bytes) from delivery_minutes d where d.stream_id = s.id), 0) from s
      union all
      select s.id, 'storage', case when s.recording_ready_at is null then 0
        else coalesce(s.recording_bytes, 0) * floor(extract(epoch from greatest(interval '0', coalesce(s.recording_deleted_at, at) - s.recording_ready_at))) end
      from s
    ),
    charged as (
      select c.stream_id, c.item, sum(c.quantity) as quantity, sum(c.amount_usd) as amount from charges c
      where c.stream_id in (select id from s) group by c.stream_id, c.item
    ),
    r as (select x.item, x.rate::numeric, x.divisor::numeric from jsonb_to_recordset(rates) as x (item text, rate text, divisor text))
    select u.stream_id, u.item, greatest(u.quantity, coalesce(c.quantity, 0))::numeric, coalesce(c.amount, 0)::numeric,
      (coalesce(c.amount, 0) + greatest(0, round(r.rate * u.quantity / r.divisor, 6) - round(r.rate * coalesce(c.quantity, 0) / r.divisor, 6)))::numeric
    from used u join r using (item) left join charged c using (stream_id, item);
end $$;
