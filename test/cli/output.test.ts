import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../src/config/config.js';
import { ApiError } from '../../src/core/errors.js';
import { ApiResponseError, CliError, describeError } from '../../src/cli/errors.js';
import { OperatorError } from '../../src/operator/errors.js';
import { renderRecord, renderTable } from '../../src/cli/table.js';

const t = suite('cli: output and error mapping');

t('tables align columns and show null as -', () => {
  const rows = [
    { id: 'acc_1', name: 'Acme', credit: '50.00' },
    { id: 'acc_22', name: null, credit: '0.00' },
  ];
  const text = renderTable(rows, [
    { header: 'id', get: (r) => r.id },
    { header: 'name', get: (r) => r.name },
    { header: 'credit', get: (r) => r.credit },
  ]);
  assert.is(text, ['ID      NAME  CREDIT', 'acc_1   Acme  50.00', 'acc_22  -     0.00'].join('\n'));
});

t('tables measure cells in terminal columns: CJK and emoji take two each', () => {
  const rows = [
    { id: 'str_a', name: '日本語', profile: 'abr_basic' },
    { id: 'str_b', name: '🎥 live', profile: 'passthrough' },
    { id: 'str_c', name: 'plain', profile: 'abr_basic' },
  ];
  const text = renderTable(rows, [
    { header: 'id', get: (r) => r.id },
    { header: 'name', get: (r) => r.name },
    { header: 'profile', get: (r) => r.profile },
  ]);
  assert.is(
    text,
    [
      'ID     NAME     PROFILE',
      'str_a  日本語   abr_basic',
      'str_b  🎥 live  passthrough',
      'str_c  plain    abr_basic',
    ].join('\n'),
  );
});

t('records list keys in the order asked, objects as JSON', () => {
  assert.is(renderRecord({ b: 1, id: 'x', meta: { a: 1 } }, ['id', 'meta', 'missing']), 'id    x\nmeta  {"a":1}');
});

t('API error documents pass through; the human line is "code: message"', () => {
  const doc = { error: { code: 'not_found', message: 'No such stream.', details: {}, request_id: 'req_x' } };
  const d = describeError(new ApiResponseError(404, doc));
  assert.equal(d.document, doc);
  assert.is(d.line, 'not_found: No such stream.');
  assert.is(d.exitCode, 1);
});

t('service, config, operator and CLI errors get a code and one line', () => {
  assert.equal(
    describeError(new ApiError('invalid_request', 'credit must be a decimal', { field: 'credit' })).document,
    {
      error: { code: 'invalid_request', message: 'credit must be a decimal', details: { field: 'credit' } },
    },
  );
  const config = describeError(new ConfigError('/d/config.json: unknown key "bogus"'));
  assert.is(config.document.error.code, 'invalid_config');
  const cli = describeError(new CliError('invalid_usage', '--json needs --detach', {}, 2));
  assert.is(cli.exitCode, 2);
  const operator = describeError(
    new OperatorError('database_not_running', 'the appliance database is not running:\nstart it', { data_dir: '/d' }),
  );
  assert.is(operator.line, 'the appliance database is not running: start it');
  assert.equal(operator.document.error, {
    code: 'database_not_running',
    message: 'the appliance database is not running: start it',
    details: { data_dir: '/d' },
  });
  assert.is(operator.exitCode, 1);
  assert.is(describeError(new Error('boom')).document.error.code, 'internal_error');
});

t.run();
