// The runnable clients of examples/, each run by its own run.sh as a merchant
// would, against the real service in-process: each checks itself against the
// published vectors, then lists banks, runs an enquiry, creates a payin of
// 1500.50 and reads it back, and exits 0 only if all of that worked.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { MERCHANT_A, startTestApp, type TestApp } from '@paysign/api/testing';

const EXAMPLES = path.resolve(__dirname, '../../../examples');

function run(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', [script], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('the runnable clients in examples/', () => {
  let api: TestApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startTestApp();
    env = { PAYSIGN_BASE_URL: api.baseUrl, PAYSIGN_API_KEY: MERCHANT_A.apiKey, PAYSIGN_SECRET_KEY: MERCHANT_A.secretKey, PAYSIGN_MERCHANT_ID: MERCHANT_A.merchantId, PAYSIGN_TENANT_ID: MERCHANT_A.tenantId };
  });
  afterAll(() => api.close());

  it.each(['python', 'java', 'bash', 'typescript'])('%s: checks the vectors, then lists banks, enquires, creates a payin of 1500.50 and reads it back', async (language) => {
    const result = await run(path.join(EXAMPLES, language, 'run.sh'), env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(result.stdout).toMatch(/signing matches/);
    expect(result.stdout).toMatch(/\d+ banks/);
    expect(result.stdout).toContain('ADAEZE NWOSU');
    expect(result.stdout).toMatch(/payin \S+: PENDING, 1500\.5 NGN/);
  }, 120_000);

  it.each(['python', 'java', 'bash', 'typescript'])('%s: exits non-zero when the service refuses it', async (language) => {
    const result = await run(path.join(EXAMPLES, language, 'run.sh'), { ...env, PAYSIGN_SECRET_KEY: 'sk_wrong_wrong_wrong_wrong_wrong_wrong' });
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain('AUTH_SIGNATURE_MISMATCH');
  }, 120_000);
});
