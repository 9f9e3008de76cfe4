// deploy/kubernetes, checked without a cluster. The base and the production
// overlay are rendered by `kubectl kustomize`, and the checks are:
// - every object passes the Kubernetes schema of its kind (kubernetes-models),
//   and a broken one does not;
// - the overlay's settings and the Secret's keys pass the service's own
//   production boot check;
// - the probes name the contract's health paths, and the ports the settings;
// - every variable set is in the README table;
// - the pod is non-root and read-only, and is given longer to stop than the
//   drain and the grace;
// - the merchants are the database's: the keyring that seals their secrets
//   comes from a Secret of its own, and no merchants file is mounted or named;
// - no secret value is written in the manifests: the overlay generates the
//   Secrets from git-ignored files, and a changed one rolls the pods;
// - the image is pinned by digest, the pods spread across zones and hosts;
// - the NetworkPolicy lets in only the ingress controller and Prometheus, and
//   lets out only DNS, the stores, the provider and the webhook receivers,
//   never every address;
// - the Ingress serves PUBLIC_BASE_URL's host over TLS, within the service's
//   body and time limits.
// The production overlay is rendered from a copy of deploy/kubernetes with the
// secret files written, as an operator writes them. Without kubectl the
// rendered checks skip on a developer's machine, and fail under CI=true.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { BlockList } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ServiceMonitor, type IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress, type IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace, type INamespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { ServiceAccount, type IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { loadConfig } from '../src/config/app-config';

const root = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
}

/**
 * The schema of each kind the manifests hold; a kind added to them fails here
 * until its model is added. The schemas check types, formats and required
 * fields. Like the API server without strict field validation, they let an
 * unknown field through, so the checks below read each field they rely on.
 */
const SCHEMAS: Record<string, (object: KubernetesObject) => void> = {
  'v1/Namespace': (object) => new Namespace(object as INamespace).validate(),
  'v1/ServiceAccount': (object) => new ServiceAccount(object as IServiceAccount).validate(),
  'v1/ConfigMap': (object) => new ConfigMap(object as IConfigMap).validate(),
  // Kustomize folds a generated Secret's base64 at 70 characters; the API server's decoder skips the line breaks, the schema's `byte` format does not.
  'v1/Secret': (object) => {
    const secret = object as ISecret;
    new Secret({ ...secret, data: Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, value.replace(/\n/g, '')])) }).validate();
  },
  'v1/Service': (object) => new Service(object as IService).validate(),
  'apps/v1/Deployment': (object) => new Deployment(object as IDeployment).validate(),
  'policy/v1/PodDisruptionBudget': (object) => new PodDisruptionBudget(object as IPodDisruptionBudget).validate(),
  'autoscaling/v2/HorizontalPodAutoscaler': (object) => new HorizontalPodAutoscaler(object as IHorizontalPodAutoscaler).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (object) => new NetworkPolicy(object as INetworkPolicy).validate(),
  'networking.k8s.io/v1/Ingress': (object) => new Ingress(object as IIngress).validate(),
  'monitoring.coreos.com/v1/ServiceMonitor': (object) => new ServiceMonitor(object as IServiceMonitor).validate(),
};

function validateObject(object: KubernetesObject): void {
  const schema = SCHEMAS[`${object.apiVersion}/${object.kind}`];
  if (!schema) throw new Error(`no schema for ${object.apiVersion} ${object.kind}: add its kubernetes-models class to SCHEMAS`);
  schema(object);
}

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });

/** The objects `kubectl kustomize` renders from a directory of a deploy/kubernetes tree (the repository's, or a copy). */
function render(dir: string, tree = path.join(root, 'deploy/kubernetes')): KubernetesObject[] {
  const rendered = spawnSync('kubectl', ['kustomize', path.join(tree, dir)], { encoding: 'utf8' });
  if (rendered.status !== 0) {
    throw new Error(`kubectl kustomize ${dir} failed (components and replacements need a kustomize of 2021 or later; found ${kubectl.stdout.split('\n')[0]}):\n${rendered.stderr}`);
  }
  return parseAllDocuments(rendered.stdout).map((document) => document.toJS() as KubernetesObject);
}

/**
 * `describe` for the suites that render the manifests. Without kubectl the
 * suite is skipped, loudly, on a developer's machine; under CI=true it fails.
 */
function describeWithKubectl(name: string, suite: () => void): void {
  if (kubectl.status === 0) {
    describe(name, suite);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs kubectl', () => {
        throw new Error('kubectl is not installed; under CI=true the Kubernetes manifests must be rendered. Install kubectl 1.21 or later (.ci/run tries apt-get install kubectl).');
      });
    });
  } else {
    console.warn(`SKIPPED "${name}": kubectl is not installed.`);
    describe.skip(name, suite);
  }
}

/** The variables the service reads, from the README's configuration table. */
const README_VARIABLES = new Set([...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string));

/**
 * Test values for the keys of payment-service-secrets, of the forms production
 * accepts. Made by openssl rand -base64 32 and openssl rand -hex 20.
 */
const SECRET_VALUES: Record<string, string> = {
  DATABASE_URL: 'postgres://paysign@postgres.paysign.svc:5432/paysign',
  DATABASE_MIGRATION_URL: 'postgres://paysign_owner@postgres.paysign.svc:5432/paysign',
  REDIS_URL: 'redis://redis.paysign.svc:6379',
  CHECKOUT_TOKEN_SECRET: 'kS4xhGqz+K4PkI9MfDFyoTGMIZfGwV7DE6KOjCOd91I=',
  PAYSTACK_SECRET_KEY: 'sk_live_04984c053a06bf7a504e13820d8344f350838fff',
};

/** A test value for the Secret payment-service-metrics-token, made by openssl rand -base64 32. */
const METRICS_TOKEN_VALUE = 'd2/LZoWFDu3vaNvCDJvedTnoSheONT+v4CxdtO3nFD8=';

/** A test value for the Secret payment-service-keyring: one key, made by openssl rand -base64 32. */
const SECRETS_KEYRING_VALUE = 'k1:LLYBFPQ4mNU4JbnjJbPE7TbHCTaGDhFv+hpELpyrKU8=';

/** The overlay's git-ignored files, each the Secret it becomes and the test values an operator would write in it. */
const SECRET_FILES = {
  'secrets.env': { secret: 'payment-service-secrets', values: SECRET_VALUES },
  'keyring.env': { secret: 'payment-service-keyring', values: { SECRETS_KEYRING: SECRETS_KEYRING_VALUE } },
  'metrics-token.env': { secret: 'payment-service-metrics-token', values: { METRICS_TOKEN: METRICS_TOKEN_VALUE } },
} satisfies Record<string, { secret: string; values: Record<string, string> }>;
type SecretFile = keyof typeof SECRET_FILES;

/** The test values of each Secret, by the name the base gives it. */
const TEST_SECRETS: Record<string, Record<string, string>> = Object.fromEntries(Object.values(SECRET_FILES).map(({ secret, values }) => [secret, values]));

/** Other values, made by openssl rand -base64 32, that an operator changes a file to. */
const CHANGED_SECRET_FILES: Record<SecretFile, Record<string, string>> = {
  'secrets.env': { ...SECRET_VALUES, CHECKOUT_TOKEN_SECRET: 'sgGbDwhu70wQtb8gemcbateZ5BS2zkdBog44cfl9Wqg=' },
  'keyring.env': { SECRETS_KEYRING: `${SECRETS_KEYRING_VALUE},k2:XOoZFEeR+LjcPXCV+RTkppwr6X+EMG7U7633gJ2p3+s=` },
  'metrics-token.env': { METRICS_TOKEN: '2ZP9/Nd3yJKh0d7jxH/gDx2bRUiGr1qBNI+3BCftpxQ=' },
};

const envFile = (values: Record<string, string>) => `${Object.entries(values).map(([name, value]) => `${name}=${value}`).join('\n')}\n`;

/**
 * The production overlay as an operator renders it: from a copy of
 * deploy/kubernetes with the three secret files written (the test values,
 * or `files`), and `config.env` edited by `editConfig`.
 */
function renderProduction(files: Partial<Record<SecretFile, Record<string, string>>> = {}, editConfig: (text: string) => string = (text) => text): KubernetesObject[] {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-kubernetes-'));
  try {
    fs.cpSync(path.join(root, 'deploy/kubernetes'), tree, { recursive: true });
    const overlay = path.join(tree, 'overlays/production');
    for (const [file, { values }] of Object.entries(SECRET_FILES)) fs.writeFileSync(path.join(overlay, file), envFile(files[file as SecretFile] ?? values), { mode: 0o600 });
    fs.writeFileSync(path.join(overlay, 'config.env'), editConfig(fs.readFileSync(path.join(overlay, 'config.env'), 'utf8')));
    return render('overlays/production', tree);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

/** The keys and values of a rendered Secret. */
function secretData(secret: ISecret): Record<string, string> {
  return Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
}

/** `cidr` and `other` share an address. */
function overlaps(cidr: string, other: string): boolean {
  const block = (text: string) => {
    const [address = '', prefix = ''] = text.split('/');
    const type: 'ipv4' | 'ipv6' = address.includes(':') ? 'ipv6' : 'ipv4';
    const list = new BlockList();
    list.addSubnet(address, Number(prefix), type);
    return { address, type, list };
  };
  const [a, b] = [block(cidr), block(other)];
  return a.type === b.type && (a.list.check(b.address, b.type) || b.list.check(a.address, a.type));
}

/** What a public address is not: private, shared, loopback, link-local (the cloud metadata service) and "this network". */
const NON_PUBLIC_RANGES = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16', '::1/128', 'fc00::/7', 'fe80::/10'];

/** The documentation ranges (RFC 5737, RFC 3849), which reach nothing: the overlay's placeholders are in them. */
const DOCUMENTATION_RANGES = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'];

/** A label selector that selects something in particular: `{}` selects everything. */
const selectsSome = (selector: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | undefined) =>
  Object.keys(selector?.matchLabels ?? {}).length > 0 || (selector?.matchExpressions ?? []).length > 0;

/** A size of ingress-nginx (nginx's `64k`, `1m`), in bytes. */
function nginxSizeBytes(size: string): number {
  const match = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (!match) throw new Error(`not an nginx size: ${size}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] as string).toLowerCase()] as number;
  return Number(match[1]) * unit;
}

/** What the manifests hand one pod. */
class Rendered {
  constructor(readonly objects: KubernetesObject[]) {}

  find<T>(kind: string, name: string): T {
    const found = this.objects.find((object) => object.kind === kind && object.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name} in ${this.objects.map((o) => `${o.kind} ${o.metadata.name}`).join(', ')}`);
    return found as T;
  }

  get deployment(): IDeployment {
    return this.find<IDeployment>('Deployment', 'payment-service');
  }

  get pod(): IPodSpec {
    return this.deployment.spec?.template.spec as IPodSpec;
  }

  get container(): IContainer {
    return this.pod.containers.find((container) => container.name === 'payment-service') as IContainer;
  }

  /** The ConfigMap the container takes its settings from, under its hashed name. */
  get config(): Record<string, string> {
    const names = (this.container.envFrom ?? []).map((source) => source.configMapRef?.name);
    const configMap = this.objects.find((object) => object.kind === 'ConfigMap' && names.includes(object.metadata.name)) as IConfigMap | undefined;
    if (!configMap?.data) throw new Error(`the container takes no ConfigMap with data (envFrom: ${JSON.stringify(this.container.envFrom)})`);
    return configMap.data;
  }

  /** The Secrets rendered: the overlay's, generated; the base renders none. */
  get secrets(): ISecret[] {
    return this.objects.filter((object) => object.kind === 'Secret') as ISecret[];
  }

  /** The name a Secret the base names by `secret` has here: with the hash of its content where the overlay generates it. */
  secretName(secret: string): string {
    const generated = this.secrets.filter((object) => new RegExp(`^${secret}-[a-z0-9]{10}$`).test(object.metadata?.name ?? ''));
    if (generated.length > 1) throw new Error(`${generated.length} Secrets generated as ${secret}`);
    return generated[0]?.metadata?.name ?? secret;
  }

  /** The keys of the Secret the base names `secret` that the container reads, by variable. */
  secretKeysOf(secret: string): Record<string, string> {
    const name = this.secretName(secret);
    const keys: Record<string, string> = {};
    for (const variable of this.container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref?.name === name) keys[variable.name] = ref.key;
    }
    return keys;
  }

  /** The value a secretKeyRef gives: the rendered Secret's, or where none is rendered (the base), the test value of the Secret it names. */
  private secretValue(ref: { name: string; key: string }): string | undefined {
    const secret = this.secrets.find((object) => object.metadata?.name === ref.name);
    return secret ? secretData(secret)[ref.key] : TEST_SECRETS[ref.name]?.[ref.key];
  }

  get secretKeys(): Record<string, string> {
    return this.secretKeysOf('payment-service-secrets');
  }

  /** The environment the service would boot with, the Secrets holding SECRET_VALUES, METRICS_TOKEN_VALUE and SECRETS_KEYRING_VALUE. */
  get environment(): Record<string, string> {
    const secrets: Record<string, string> = {};
    for (const variable of this.container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (!ref) continue;
      const value = this.secretValue({ name: ref.name as string, key: ref.key });
      if (value !== undefined) secrets[variable.name] = value;
      else if (!ref.optional) secrets[variable.name] = `no test value for ${ref.name} ${ref.key}`;
    }
    const literals = Object.fromEntries((this.container.env ?? []).filter((variable) => variable.value !== undefined).map((variable) => [variable.name, variable.value as string]));
    return { ...this.config, ...literals, ...secrets };
  }

  portNumber(name: string): number | undefined {
    return this.container.ports?.find((port) => port.name === name)?.containerPort;
  }
}

describeWithKubectl('deploy/kubernetes, rendered by kubectl kustomize', () => {
  let base: Rendered;
  let production: Rendered;
  beforeAll(() => {
    base = new Rendered(render('base'));
    production = new Rendered(renderProduction());
  });
  const each = (check: (rendered: Rendered, name: string) => void) => {
    check(base, 'base');
    check(production, 'production');
  };

  it('renders objects that each pass the Kubernetes schema of their kind, the ServiceMonitor, the Ingress and the Secrets only in production', () => {
    each((rendered) => {
      const problems = rendered.objects.flatMap((object) => {
        try {
          validateObject(object);
          return [];
        } catch (error) {
          return [`${object.kind} ${object.metadata.name}: ${(error as Error).message}`];
        }
      });
      expect(problems).toEqual([]);
    });
    expect(base.objects.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'NetworkPolicy', 'PodDisruptionBudget', 'Service', 'Service', 'ServiceAccount']);
    expect(production.objects.map((o) => o.kind)).toEqual(expect.arrayContaining(['Namespace', 'ServiceMonitor', 'Ingress', 'Secret', 'Secret', 'Secret']));
    expect(production.secrets).toHaveLength(3);
  });

  it.each<[string, { kind: string; at: string; value: unknown; want: RegExp }]>([
    ['replicas written as a word', { kind: 'Deployment', at: 'spec.replicas', value: 'two', want: /spec\/replicas must be integer/ }],
    ['a container port given as text', { kind: 'Deployment', at: 'spec.template.spec.containers.0.ports.0.containerPort', value: '3000', want: /containerPort must be integer/ }],
    ['a memory limit that is no quantity', { kind: 'Deployment', at: 'spec.template.spec.containers.0.resources.limits.memory', value: 'plenty', want: /memory must match format "quantity"/ }],
    ['a Service port with no number', { kind: 'Service', at: 'spec.ports.0.port', value: undefined, want: /spec\/ports\/0 must have required property port/ }],
    ['ServiceMonitor endpoints that are no list', { kind: 'ServiceMonitor', at: 'spec.endpoints', value: { port: 'metrics' }, want: /spec\/endpoints must be array/ }],
    ['an Ingress backend port given as text', { kind: 'Ingress', at: 'spec.rules.0.http.paths.0.backend.service.port.number', value: '80', want: /number must be integer/ }],
    ['a NetworkPolicy address that is no CIDR', { kind: 'NetworkPolicy', at: 'spec.egress.1.to.0.ipBlock.cidr', value: 42, want: /cidr must be string/ }],
  ])('refuses %s: the validation can fail', (_name, { kind, at, value, want }) => {
    const object = structuredClone(production.find<KubernetesObject>(kind, 'payment-service'));
    expect(() => validateObject(object)).not.toThrow();
    const keys = at.split('.');
    const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, object as unknown as Record<string, unknown>);
    parent[keys[keys.length - 1] as string] = value;
    expect(() => validateObject(object)).toThrow(want);
  });

  it('refuses a kind it has no schema for', () => {
    expect(() => validateObject({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'payment-service' } })).toThrow('no schema for batch/v1 CronJob');
  });

  it("boots in production mode on the overlay's settings and the Secret's keys", () => {
    const config = loadConfig(production.environment);
    expect(config).toMatchObject({ mode: 'production', accountNameProvider: 'paystack', paymentGateway: 'paystack', webhooks: { allowLocalReceivers: false } });
    expect(config.publicBaseUrl).toMatch(/^https:\/\//);
    expect(loadConfig(base.environment).mode).toBe('sandbox');
  });

  it.each<[string, { without: string[]; want: string }]>([
    ['the database', { without: ['DATABASE_URL'], want: 'DATABASE_URL is required' }],
    ['Redis', { without: ['REDIS_URL'], want: 'REDIS_URL is required' }],
    ['the checkout token secret', { without: ['CHECKOUT_TOKEN_SECRET'], want: 'CHECKOUT_TOKEN_SECRET is required' }],
    ['the Paystack key', { without: ['PAYSTACK_SECRET_KEY'], want: 'PAYSTACK_SECRET_KEY is required' }],
    ['the public origin', { without: ['PUBLIC_BASE_URL'], want: 'PUBLIC_BASE_URL is required' }],
    ['the keyring that seals the merchants\' secrets', { without: ['SECRETS_KEYRING'], want: 'SECRETS_KEYRING is required' }],
    ['the metrics port or token', { without: ['METRICS_PORT', 'METRICS_TOKEN'], want: 'METRICS_PORT or METRICS_TOKEN must be set' }],
  ])('needs %s to boot in production, and the overlay sets it', (_name, { without, want }) => {
    const environment = production.environment;
    for (const name of without) {
      expect(environment[name]).toBeDefined();
      delete environment[name];
    }
    expect(() => loadConfig(environment)).toThrow(want);
  });

  it("probes liveness and readiness on the contract's health paths, on the service port", () => {
    const contract = parse(read('openapi/payment-api.yaml')) as { servers: Array<{ url: string }>; paths: Record<string, { get?: unknown }> };
    // The contract's paths are relative to its server's path ("/" here), as a probe's path is not.
    const basePath = new URL(contract.servers[0]?.url as string).pathname.replace(/\/$/, '');
    each((rendered) => {
      const { startupProbe, livenessProbe, readinessProbe } = rendered.container;
      expect([startupProbe, livenessProbe, readinessProbe].map((probe) => probe?.httpGet?.path)).toEqual(['/payment/health/live', '/payment/health/live', '/payment/health/ready']);
      for (const probe of [startupProbe, livenessProbe, readinessProbe]) {
        const probePath = probe?.httpGet?.path as string;
        expect(probePath.startsWith(basePath)).toBe(true);
        expect(contract.paths[probePath.slice(basePath.length)]?.get).toBeDefined();
        expect(probe?.httpGet?.port).toBe('http');
      }
    });
  });

  it('opens the ports the settings name, the public Service the service port alone, and the metrics port to Prometheus', () => {
    each((rendered) => {
      const config = loadConfig(rendered.environment);
      expect(rendered.portNumber('http')).toBe(config.port);
      expect(rendered.portNumber('metrics')).toBe(config.metricsPort);
      expect(rendered.find<IService>('Service', 'payment-service').spec?.ports?.map((port) => port.targetPort)).toEqual(['http']);
      const metrics = rendered.find<IService>('Service', 'payment-service-metrics');
      expect(metrics.spec?.ports?.map((port) => [port.name, port.targetPort])).toEqual([['metrics', 'metrics']]);
      // The ServiceMonitor's selector takes the metrics Service and never the public one.
      const serviceMonitorSelector = { 'app.kubernetes.io/name': 'payment-service', 'app.kubernetes.io/component': 'metrics' };
      expect(metrics.metadata?.labels).toMatchObject(serviceMonitorSelector);
      expect(rendered.find<IService>('Service', 'payment-service').metadata?.labels?.['app.kubernetes.io/component']).toBeUndefined();
    });
    const serviceMonitor = production.find<IServiceMonitor>('ServiceMonitor', 'payment-service');
    expect(serviceMonitor.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'payment-service', 'app.kubernetes.io/component': 'metrics' });
    // The token's own Secret, shared with the container and with nothing else: Prometheus gets no other secret.
    const tokenSecret = production.secretName('payment-service-metrics-token');
    expect(tokenSecret).toMatch(/^payment-service-metrics-token-[a-z0-9]{10}$/);
    expect(serviceMonitor.spec.endpoints?.map((endpoint) => [endpoint.port, endpoint.path, endpoint.authorization?.credentials])).toEqual([['metrics', '/payment/metrics', { name: tokenSecret, key: 'METRICS_TOKEN' }]]);
    expect(production.secretKeysOf('payment-service-metrics-token')).toEqual({ METRICS_TOKEN: 'METRICS_TOKEN' });
    expect(Object.keys(secretData(production.secrets.find((secret) => secret.metadata?.name === tokenSecret) as ISecret))).toEqual(['METRICS_TOKEN']);
    // The job the alerts select: the operator names it after the label jobLabel names, on the metrics Service.
    const alerts = read('deploy/monitoring/alerts.yaml');
    const job = /up\{job="([^"]+)"\}/.exec(alerts)?.[1];
    expect(job).toBeDefined();
    expect(production.find<IService>('Service', 'payment-service-metrics').metadata?.labels?.[serviceMonitor.spec.jobLabel as string]).toBe(job);
  });

  it('sets only variables the service reads, as the README table lists them', () => {
    each((rendered) => {
      const set = [...Object.keys(rendered.config), ...(rendered.container.env ?? []).map((variable) => variable.name)];
      expect(set.filter((name) => !README_VARIABLES.has(name))).toEqual([]);
    });
  });

  it('runs as the image\'s non-root user on a read-only root filesystem, with no capabilities and no privilege escalation', () => {
    // The node images' `node` user is uid 1000.
    expect(read('deploy/Dockerfile')).toMatch(/^USER node$/m);
    each((rendered) => {
      const { pod, container } = rendered;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
      expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      expect(container.securityContext?.capabilities?.add).toBeUndefined();
      expect(container.securityContext?.privileged).toBeFalsy();
      expect(pod).toMatchObject({ automountServiceAccountToken: false, enableServiceLinks: false });
      expect([pod.hostNetwork, pod.hostPID, pod.hostIPC]).toEqual([undefined, undefined, undefined]);
      for (const kind of ['requests', 'limits'] as const) expect(Object.keys(container.resources?.[kind] ?? {}).sort()).toEqual(['cpu', 'memory']);
    });
    expect(production.find<KubernetesObject>('Namespace', 'paysign').metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
  });

  it("gives a pod longer to stop than the service's drain and grace together", () => {
    each((rendered) => {
      const { shutdownDrainMs, shutdownGraceMs } = loadConfig(rendered.environment);
      expect((rendered.pod.terminationGracePeriodSeconds as number) * 1000).toBeGreaterThan(shutdownDrainMs + shutdownGraceMs);
      // The image runs the service itself, so the kubelet's SIGTERM reaches it.
      expect(rendered.container.command).toBeUndefined();
    });
  });

  it('takes SECRETS_KEYRING from a Secret of its own, required, and names or mounts no merchants file', () => {
    each((rendered) => {
      expect(rendered.container.env?.filter((variable) => variable.name === 'SECRETS_KEYRING')).toEqual([
        { name: 'SECRETS_KEYRING', valueFrom: { secretKeyRef: { name: rendered.secretName('payment-service-keyring'), key: 'SECRETS_KEYRING' } } },
      ]);
      // The keyring's Secret holds nothing else, so that access to it can be granted apart.
      expect(rendered.secretKeysOf('payment-service-keyring')).toEqual({ SECRETS_KEYRING: 'SECRETS_KEYRING' });
      // Merchants are loaded from the database: a file named here would be imported at every new content, and is deprecated.
      const set = [...Object.keys(rendered.config), ...(rendered.container.env ?? []).map((variable) => variable.name)];
      expect(set.filter((name) => name.startsWith('MERCHANTS_FILE') || name === 'MERCHANTS_WATCH_INTERVAL_MS')).toEqual([]);
      expect([rendered.pod.volumes, rendered.container.volumeMounts]).toEqual([undefined, undefined]);
    });
  });

  it('takes every secret from a Secret by name, writes no secret value, and documents each key', () => {
    const secretNames = Object.keys(SECRET_VALUES);
    each((rendered) => {
      expect(Object.keys(rendered.secretKeys).sort()).toEqual([...secretNames].sort());
      expect(Object.entries(rendered.secretKeys).filter(([name, key]) => name !== key)).toEqual([]);
      expect(Object.keys(rendered.config).filter((name) => secretNames.includes(name) || /SECRET|TOKEN|PASSWORD/.test(name))).toEqual([]);
      expect((rendered.container.env ?? []).filter((variable) => variable.value !== undefined)).toEqual([]);
      // Outside the Secrets, which hold only what the operator's files held (below), no secret value.
      const text = JSON.stringify(rendered.objects.filter((object) => object.kind !== 'Secret'));
      expect(text).not.toMatch(/[a-z]+:\/\/[^:@\s/"]+:[^@\s"]+@/);
      expect(text).not.toMatch(/sk_(live|test)_|pk_(live|test)_|whsec_/);
      // A keyring entry: an id, then the base64 of 32 bytes.
      expect(text).not.toMatch(/[A-Za-z0-9_-]+:[A-Za-z0-9+/]{43}=/);
      for (const value of [...Object.values(SECRET_VALUES), METRICS_TOKEN_VALUE, SECRETS_KEYRING_VALUE]) expect(text).not.toContain(value);
    });
    // The migrations' role is optional: without it, they run as DATABASE_URL. Every other secret is required.
    expect(production.container.env?.filter((variable) => variable.valueFrom?.secretKeyRef?.optional).map((variable) => variable.name)).toEqual(['DATABASE_MIGRATION_URL']);
    expect(production.container.env?.find((variable) => variable.name === 'PAYSTACK_SECRET_KEY')?.valueFrom?.secretKeyRef?.optional).toBe(false);
    expect(base.secrets).toEqual([]);
  });

  it('generates the Secrets from the git-ignored files alone, each holding what its file holds, and names them wherever they are used', () => {
    const kustomization = parse(read('deploy/kubernetes/overlays/production/kustomization.yaml')) as { secretGenerator: unknown[] };
    // Only files, never a literal written in the kustomization.
    expect(kustomization.secretGenerator).toEqual(Object.entries(SECRET_FILES).map(([file, { secret }]) => ({ name: secret, envs: [file] })));
    const ignored = read('.gitignore').split('\n');
    for (const [file, { secret, values }] of Object.entries(SECRET_FILES)) {
      expect(ignored).toContain(`deploy/kubernetes/overlays/production/${file}`);
      // The example documents every key, and leaves each value for the operator.
      const example = read(`deploy/kubernetes/overlays/production/${file}.example`);
      expect([...example.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]])).toEqual(Object.keys(values).map((key) => [key, '']));
      const generated = production.secrets.find((object) => object.metadata?.name === production.secretName(secret)) as ISecret;
      expect(generated.metadata?.name).toMatch(new RegExp(`^${secret}-[a-z0-9]{10}$`));
      expect(secretData(generated)).toEqual(values);
    }
    // A name kustomize did not rewrite would name a Secret that does not exist.
    const serviceMonitor = production.find<IServiceMonitor>('ServiceMonitor', 'payment-service');
    const named = [
      ...(production.container.env ?? []).flatMap((variable) => variable.valueFrom?.secretKeyRef?.name ?? []),
      ...(serviceMonitor.spec.endpoints ?? []).flatMap((endpoint) => endpoint.authorization?.credentials?.name ?? []),
    ];
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !production.secrets.some((secret) => secret.metadata?.name === name))).toEqual([]);
  });

  it.each(Object.keys(SECRET_FILES) as SecretFile[])('rolls the pods when %s changes: the pod template then names the new Secret', (file) => {
    const secret = SECRET_FILES[file].secret;
    const changed = new Rendered(renderProduction({ [file]: CHANGED_SECRET_FILES[file] }));
    const [before, after] = [production.secretName(secret), changed.secretName(secret)];
    expect(after).not.toBe(before);
    expect(secretData(changed.secrets.find((object) => object.metadata?.name === after) as ISecret)).toEqual(CHANGED_SECRET_FILES[file]);
    // The pod template differs, so the apply rolls the pods, and by the Secret's name alone.
    const template = production.deployment.spec?.template;
    expect(changed.deployment.spec?.template).not.toEqual(template);
    expect(changed.deployment.spec?.template).toEqual(JSON.parse(JSON.stringify(template).replaceAll(before, after)));
    // The ServiceMonitor follows the token's Secret too.
    const credentials = (rendered: Rendered) => rendered.find<IServiceMonitor>('ServiceMonitor', 'payment-service').spec.endpoints?.[0]?.authorization?.credentials?.name;
    expect(credentials(changed)).toBe(secret === 'payment-service-metrics-token' ? after : credentials(production));
    // An unchanged render names the same Secrets: a roll happens on a change alone.
    expect(new Rendered(renderProduction()).deployment.spec?.template).toEqual(template);
  });

  it('leaves the replica count to a CPU autoscaler, and keeps all but one pod through a disruption', () => {
    each((rendered, name) => {
      expect(rendered.deployment.spec?.replicas).toBeUndefined();
      const autoscaler = rendered.find<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler', 'payment-service');
      expect(autoscaler.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'payment-service' });
      expect(autoscaler.spec?.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
      expect(autoscaler.spec?.minReplicas).toBe(name === 'production' ? 3 : 2);
      const budget = rendered.find<IPodDisruptionBudget>('PodDisruptionBudget', 'payment-service');
      expect(budget.spec).toEqual({ maxUnavailable: 1, selector: rendered.deployment.spec?.selector });
      expect(rendered.deployment.spec?.template.metadata?.labels).toMatchObject(rendered.deployment.spec?.selector.matchLabels ?? { missing: 'selector' });
    });
  });

  it('runs the image by its digest in production, its tag kept for people', () => {
    // A placeholder digest ships, for the operator to replace with the one `docker push` printed.
    expect(production.container.image).toMatch(/^[^:@]+\/paysign\/payment-service:\d+\.\d+\.\d+@sha256:[0-9a-f]{64}$/);
    const kustomization = parse(read('deploy/kubernetes/overlays/production/kustomization.yaml')) as { images: Array<Record<string, string>> };
    expect(kustomization.images.map((image) => image.digest)).toEqual([expect.stringMatching(/^sha256:[0-9a-f]{64}$/)]);
  });

  it('spreads the pods across zones, then across hosts, preferring it without ever leaving a pod Pending for it', () => {
    each((rendered) => {
      const spread = (topologyKey: string) => ({ maxSkew: 1, topologyKey, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: rendered.deployment.spec?.selector });
      expect(rendered.pod.topologySpreadConstraints).toEqual([spread('topology.kubernetes.io/zone'), spread('kubernetes.io/hostname')]);
    });
  });

  it("lets only the ingress controller's namespace reach the service port, and only the monitoring namespace the metrics port", () => {
    each((rendered) => {
      const policy = rendered.find<INetworkPolicy>('NetworkPolicy', 'payment-service').spec;
      expect(policy?.podSelector).toEqual(rendered.deployment.spec?.selector);
      expect(policy?.policyTypes).toEqual(['Ingress', 'Egress']);
      expect(policy?.ingress).toEqual([
        { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }], ports: [{ port: 'http', protocol: 'TCP' }] },
        { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ port: 'metrics', protocol: 'TCP' }] },
      ]);
    });
  });

  it('lets the pods reach DNS, and in production the database, Redis, the provider and the webhook receivers, each on its port, and never every address', () => {
    const egress = (rendered: Rendered) => rendered.find<INetworkPolicy>('NetworkPolicy', 'payment-service').spec?.egress ?? [];
    const dns = {
      to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
      ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }],
    };
    // The base knows no address: an overlay adds them.
    expect(egress(base)).toEqual([dns]);
    const rules = egress(production);
    expect(rules[0]).toEqual(dns);
    // The database, Redis, the provider's API and the webhook receivers, in that order, TCP on one port each; https only outside.
    expect(rules.slice(1).map((rule) => rule.ports)).toEqual([5432, 6379, 443, 443].map((port) => [{ port, protocol: 'TCP' }]));
    const peers = rules.flatMap((rule) => rule.to ?? []);
    // Every rule names where it goes: a rule with no `to` goes anywhere.
    expect(rules.filter((rule) => (rule.to ?? []).length === 0)).toEqual([]);
    for (const peer of peers as INetworkPolicyPeer[]) {
      if (peer.ipBlock) {
        expect(peer.ipBlock.cidr).not.toMatch(/\/0$/);
        // Nothing reaches the cloud metadata service.
        expect([peer.ipBlock.cidr, overlaps(peer.ipBlock.cidr, '169.254.169.254/32')]).toEqual([peer.ipBlock.cidr, false]);
      } else {
        // A selector written `{}` selects every namespace, or every pod of one.
        const namespaces = peer.namespaceSelector === undefined || selectsSome(peer.namespaceSelector);
        const pods = peer.podSelector === undefined || selectsSome(peer.podSelector);
        expect([peer, namespaces && pods]).toEqual([peer, true]);
      }
    }
    // The provider and the receivers are outside: public addresses only.
    for (const rule of rules.slice(3)) {
      for (const peer of rule.to ?? []) {
        const cidr = peer.ipBlock?.cidr as string;
        expect([cidr, NON_PUBLIC_RANGES.filter((range) => overlaps(cidr, range))]).toEqual([cidr, []]);
      }
    }
    // Each placeholder the overlay ships is documented in the README, for the operator to replace.
    const readme = read('deploy/kubernetes/README.md');
    const placeholders = peers.flatMap((peer) => (peer.ipBlock && DOCUMENTATION_RANGES.some((range) => overlaps(peer.ipBlock?.cidr as string, range)) ? [peer.ipBlock.cidr] : []));
    expect(placeholders.filter((cidr) => !readme.includes(`\`${cidr}\``))).toEqual([]);
  });

  it("serves PUBLIC_BASE_URL's host over TLS through the Ingress, every path under /payment to the service port, untouched", () => {
    const config = loadConfig(production.environment);
    const host = new URL(config.publicBaseUrl as string).host;
    const ingress = production.find<IIngress>('Ingress', 'payment-service');
    expect(ingress.spec?.rules).toEqual([{ host, http: { paths: [{ path: '/payment', pathType: 'Prefix', backend: { service: { name: 'payment-service', port: { name: 'http' } } } }] } }]);
    expect(ingress.spec?.tls).toEqual([{ hosts: [host], secretName: 'payment-service-tls' }]);
    expect(production.find<IService>('Service', 'payment-service').spec?.ports?.map((port) => port.name)).toEqual(['http']);
    // The operator's choices, present for them to change.
    expect(ingress.spec?.ingressClassName).toEqual(expect.any(String));
    const annotations = ingress.metadata?.annotations ?? {};
    expect(annotations['cert-manager.io/cluster-issuer']).toEqual(expect.any(String));
    // The signature covers the path and the body: nothing rewrites either.
    expect(Object.keys(annotations).filter((name) => /rewrite|snippet|regex|mirror|modsecurity/.test(name))).toEqual([]);
    // The host follows PUBLIC_BASE_URL, so the checkout links and the Ingress never disagree.
    const moved = new Rendered(renderProduction({}, (text) => text.replace(/^PUBLIC_BASE_URL=.*$/m, 'PUBLIC_BASE_URL=https://checkout.acme.test')));
    const movedIngress = moved.find<IIngress>('Ingress', 'payment-service');
    expect([movedIngress.spec?.rules?.[0]?.host, movedIngress.spec?.tls?.[0]?.hosts]).toEqual(['checkout.acme.test', ['checkout.acme.test']]);
    expect(base.objects.filter((object) => object.kind === 'Ingress')).toEqual([]);
  });

  it("gives the Ingress the service's limits: every body the service takes, the time it takes to receive one, and longer than any provider call to answer", () => {
    const config = loadConfig(production.environment);
    const annotations = production.find<IIngress>('Ingress', 'payment-service').metadata?.annotations ?? {};
    expect(nginxSizeBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] as string)).toBe(config.bodyLimitBytes);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout']) * 1000).toBe(config.requestTimeoutMs);
    const longestProviderCallMs = Math.max(config.providerTimeoutMs, config.payouts.providerTimeoutMs, config.enquiryTimeoutMs);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']) * 1000).toBeGreaterThan(Math.max(longestProviderCallMs, config.requestTimeoutMs));
  });
});
