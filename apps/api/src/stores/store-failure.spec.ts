import { isStoreFailure, StoreTimeoutError, StoreUnavailableError } from './store-failure';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
class ClientOfflineError extends Error {}
class ErrorReply extends Error {}

describe('isStoreFailure', () => {
  it.each<[string, unknown]>([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a full disk under the embedded database', withCode('ENOSPC: no space left on device', 'ENOSPC')],
    ['PostgreSQL shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a statement timeout (57014)', withCode('canceling statement due to statement timeout', '57014')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    ['a serialization failure (40001)', withCode('could not serialize access', '40001')],
    ['a cut pool connection', new Error('Connection terminated unexpectedly')],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a closed PGlite', new Error('PGlite is closed')],
    ['a Redis client offline', new ClientOfflineError('The client is offline')],
    ['Redis loading its data', new ErrorReply('LOADING Redis is loading the dataset in memory')],
    ['our own command timeout', new StoreTimeoutError('Redis SET timed out')],
    ['an already classified failure', new StoreUnavailableError('payin store', { cause: new Error('x') })],
    ['a socket failure kept as the cause', new Error('query failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') })],
  ])('is true for %s', (_name, error) => {
    expect(isStoreFailure(error)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a TypeError in row mapping', new TypeError('Cannot convert undefined to a BigInt')],
    ['a RangeError from an invalid date', new RangeError('Invalid time value')],
    ['a NUL byte PostgreSQL refuses (22021)', withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021')],
    ['a date out of range (22008)', withCode('date/time field value out of range', '22008')],
    ['a syntax error in our SQL (42601)', withCode('syntax error at or near "SELEC"', '42601')],
    ['a unique violation (23505)', withCode('duplicate key value violates unique constraint', '23505')],
    ['a Redis script error', new ErrorReply('ERR Error running script')],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
  ])('is false for %s', (_name, error) => {
    expect(isStoreFailure(error)).toBe(false);
  });
});
