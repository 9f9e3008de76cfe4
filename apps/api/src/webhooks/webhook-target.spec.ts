import { runInNewContext } from 'node:vm';
import { REFUSED_RANGES } from './refused-ranges';
import { addressProblem, resolveTarget, staticTargetProblem } from './webhook-target';

const PRODUCTION = { allowLocalReceivers: false };
const SANDBOX = { allowLocalReceivers: true };

describe('webhook targets', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.251', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['fc00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::', 'unspecified'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ])('refuses %s (%s) in production', (address, range) => {
    expect(addressProblem(address, PRODUCTION)).toContain(`is a ${range} address`);
  });

  it.each(REFUSED_RANGES.map((row) => [row.cidr, row] as const))('refuses the table row %s, in production and in sandbox', (_cidr, row) => {
    expect(addressProblem(row.example, PRODUCTION)).toBe(`${row.example} is ${row.why}, which webhooks are never sent to`);
    expect(addressProblem(row.example, SANDBOX)).toBe(`${row.example} is ${row.why}, which webhooks are never sent to`);
  });

  it.each([
    ['::7f00:1', '::127.0.0.1, IPv4-compatible'],
    ['::a9fe:a9fe', '::169.254.169.254, IPv4-compatible'],
    ['::ffff:168.63.129.16', 'the cloud host address, IPv4-mapped'],
  ])('refuses %s (%s), an IPv6 form of a refused IPv4 address', (address) => {
    expect(addressProblem(address, PRODUCTION)).toContain('which webhooks are never sent to');
  });

  it('refuses a notifyUrl naming a refused address literally, as stored after URL parsing', () => {
    expect(staticTargetProblem('https://[::127.0.0.1]/hooks', PRODUCTION)).toContain('IPv4-compatible');
    expect(staticTargetProblem('https://168.63.129.16/hooks', PRODUCTION)).toContain("cloud platform's host address");
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8'])('accepts the public address %s', (address) => {
    expect(addressProblem(address, PRODUCTION)).toBeUndefined();
  });

  it('accepts loopback, and only loopback, for local receivers in sandbox mode', () => {
    expect(addressProblem('127.0.0.1', SANDBOX)).toBeUndefined();
    expect(addressProblem('::1', SANDBOX)).toBeUndefined();
    expect(addressProblem('10.0.0.1', SANDBOX)).toContain('private');
  });

  it('refuses URLs that can never be delivered, before any DNS', () => {
    expect(staticTargetProblem('http://merchant.example.com/h', PRODUCTION)).toBe('notifyUrl must be an https URL');
    expect(staticTargetProblem('http://merchant.example.com/h', SANDBOX)).toBeUndefined();
    expect(staticTargetProblem('ftp://merchant.example.com/h', SANDBOX)).toBe('notifyUrl must be an http or https URL');
    expect(staticTargetProblem('https://a:b@merchant.example.com/h', PRODUCTION)).toContain('must not hold a user name or password');
    expect(staticTargetProblem('https://[::ffff:a00:1]/h', PRODUCTION)).toContain('private');
    expect(staticTargetProblem('https://merchant.example.com/h', PRODUCTION)).toBeUndefined();
  });

  it('resolves once and refuses a host with any answer that is not public', async () => {
    const calls: string[] = [];
    const resolve = async (host: string) => {
      calls.push(host);
      return [
        { address: '93.184.215.14', family: 4 },
        { address: '::1', family: 6 },
      ];
    };
    expect(await resolveTarget(new URL('https://mixed.test/h'), PRODUCTION, resolve)).toEqual({ problem: 'mixed.test resolves to ::1 is a loopback address, which webhooks are never sent to' });
    expect(await resolveTarget(new URL('https://mixed.test/h'), SANDBOX, resolve)).toEqual({ address: '93.184.215.14', family: 4 });
    expect(calls).toEqual(['mixed.test', 'mixed.test']);
    expect(await resolveTarget(new URL('https://[2001:4860:4860::8888]/h'), PRODUCTION, resolve)).toEqual({ address: '2001:4860:4860::8888', family: 6 });
    expect(calls).toHaveLength(2);
  });

  it('reports a host that does not resolve, whatever realm its error comes from', async () => {
    // An Error made in another VM context is no instance of this one's Error.
    const foreign = runInNewContext("new Error('getaddrinfo ENOTFOUND gone.test')") as Error;
    expect(foreign instanceof Error).toBe(false);
    expect(await resolveTarget(new URL('https://gone.test/h'), PRODUCTION, () => Promise.reject(foreign))).toEqual({ problem: 'gone.test does not resolve: getaddrinfo ENOTFOUND gone.test' });
    expect(await resolveTarget(new URL('https://gone.test/h'), PRODUCTION, () => Promise.reject(new Error('getaddrinfo EAI_AGAIN gone.test')))).toEqual({ problem: 'gone.test does not resolve: getaddrinfo EAI_AGAIN gone.test' });
  });
});
