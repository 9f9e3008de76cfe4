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
// - no secret value is written in the manifests.
// Without kubectl the rendered checks skip on a developer's machine, and fail
// under CI=true.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ServiceMonitor, type IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace, type INamespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
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
  'v1/Service': (object) => new Service(object as IService).validate(),
  'apps/v1/Deployment': (object) => new Deployment(object as IDeployment).validate(),
  'policy/v1/PodDisruptionBudget': (object) => new PodDisruptionBudget(object as IPodDisruptionBudget).validate(),
  'autoscaling/v2/HorizontalPodAutoscaler': (object) => new HorizontalPodAutoscaler(object as IHorizontalPodAutoscaler).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (object) => new NetworkPolicy(object as INetworkPolicy).validate(),
  'monitoring.coreos.com/v1/ServiceMonitor': (object) => new ServiceMonitor(object as IServiceMonitor).validate(),
};

function validateObject(object: KubernetesObject): void {
  const schema = SCHEMAS[`${object.apiVersion}/${object.kind}`];
  if (!schema) throw new Error(`no schema for ${object.apiVersion} ${object.kind}: add its kubernetes-models class to SCHEMAS`);
  schema(object);
}

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });

/** The objects `kubectl kustomize` renders from a directory of deploy/kubernetes. */
function render(dir: string): KubernetesObject[] {
  const rendered = spawnSync('kubectl', ['kustomize', path.join(root, 'deploy/kubernetes', dir)], { encoding: 'utf8' });
  if (rendered.status !== 0) {
    throw new Error(`kubectl kustomize ${dir} failed (components need kubectl 1.21 or later; found ${kubectl.stdout.split('\n')[0]}):\n${rendered.stderr}`);
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
  REDIS_URL: 'redis://redis.paysign.svc:6379',
  CHECKOUT_TOKEN_SECRET: 'kS4xhGqz+K4PkI9MfDFyoTGMIZfGwV7DE6KOjCOd91I=',
  PAYSTACK_SECRET_KEY: 'sk_live_04984c053a06bf7a504e13820d8344f350838fff',
};

/** A test value for the Secret payment-service-metrics-token, made by openssl rand -base64 32. */
const METRICS_TOKEN_VALUE = 'd2/LZoWFDu3vaNvCDJvedTnoSheONT+v4CxdtO3nFD8=';

/** A test value for the Secret payment-service-keyring: one key, made by openssl rand -base64 32. */
const SECRETS_KEYRING_VALUE = 'k1:LLYBFPQ4mNU4JbnjJbPE7TbHCTaGDhFv+hpELpyrKU8=';

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

  /** The keys of the Secret `secret` the container reads, by variable. */
  secretKeysOf(secret: string): Record<string, string> {
    const keys: Record<string, string> = {};
    for (const variable of this.container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref?.name === secret) keys[variable.name] = ref.key;
    }
    return keys;
  }

  get secretKeys(): Record<string, string> {
    return this.secretKeysOf('payment-service-secrets');
  }

  /** The environment the service would boot with, the Secrets holding SECRET_VALUES, METRICS_TOKEN_VALUE and SECRETS_KEYRING_VALUE. */
  get environment(): Record<string, string> {
    const secrets = Object.fromEntries(Object.entries(this.secretKeys).map(([name, key]) => [name, SECRET_VALUES[key] ?? `no test value for ${key}`]));
    const token = Object.fromEntries(Object.entries(this.secretKeysOf('payment-service-metrics-token')).map(([name]) => [name, METRICS_TOKEN_VALUE]));
    const keyring = Object.fromEntries(Object.entries(this.secretKeysOf('payment-service-keyring')).map(([name]) => [name, SECRETS_KEYRING_VALUE]));
    const literals = Object.fromEntries((this.container.env ?? []).filter((variable) => variable.value !== undefined).map((variable) => [variable.name, variable.value as string]));
    return { ...this.config, ...literals, ...secrets, ...token, ...keyring };
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
    production = new Rendered(render('overlays/production'));
  });
  const each = (check: (rendered: Rendered, name: string) => void) => {
    check(base, 'base');
    check(production, 'production');
  };

  it('renders objects that each pass the Kubernetes schema of their kind, the ServiceMonitor only in production', () => {
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
    expect(production.objects.map((o) => o.kind)).toEqual(expect.arrayContaining(['Namespace', 'ServiceMonitor']));
  });

  it.each<[string, { kind: string; at: string; value: unknown; want: RegExp }]>([
    ['replicas written as a word', { kind: 'Deployment', at: 'spec.replicas', value: 'two', want: /spec\/replicas must be integer/ }],
    ['a container port given as text', { kind: 'Deployment', at: 'spec.template.spec.containers.0.ports.0.containerPort', value: '3000', want: /containerPort must be integer/ }],
    ['a memory limit that is no quantity', { kind: 'Deployment', at: 'spec.template.spec.containers.0.resources.limits.memory', value: 'plenty', want: /memory must match format "quantity"/ }],
    ['a Service port with no number', { kind: 'Service', at: 'spec.ports.0.port', value: undefined, want: /spec\/ports\/0 must have required property port/ }],
    ['ServiceMonitor endpoints that are no list', { kind: 'ServiceMonitor', at: 'spec.endpoints', value: { port: 'metrics' }, want: /spec\/endpoints must be array/ }],
  ])('refuses %s: the validation can fail', (_name, { kind, at, value, want }) => {
    const object = structuredClone(production.find<KubernetesObject>(kind, 'payment-service'));
    expect(() => validateObject(object)).not.toThrow();
    const keys = at.split('.');
    const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, object as unknown as Record<string, unknown>);
    parent[keys[keys.length - 1] as string] = value;
    expect(() => validateObject(object)).toThrow(want);
  });

  it('refuses a kind it has no schema for', () => {
    expect(() => validateObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'payment-service-secrets' } })).toThrow('no schema for v1 Secret');
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
    expect(serviceMonitor.spec.endpoints?.map((endpoint) => [endpoint.port, endpoint.path, endpoint.authorization?.credentials])).toEqual([['metrics', '/payment/metrics', { name: 'payment-service-metrics-token', key: 'METRICS_TOKEN' }]]);
    expect(production.secretKeysOf('payment-service-metrics-token')).toEqual({ METRICS_TOKEN: 'METRICS_TOKEN' });
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
        { name: 'SECRETS_KEYRING', valueFrom: { secretKeyRef: { name: 'payment-service-keyring', key: 'SECRETS_KEYRING' } } },
      ]);
      // The keyring's Secret holds nothing else, so that access to it can be granted apart.
      expect(rendered.secretKeysOf('payment-service-keyring')).toEqual({ SECRETS_KEYRING: 'SECRETS_KEYRING' });
      // Merchants are loaded from the database: a file named here would be imported at every new content, and is deprecated.
      const set = [...Object.keys(rendered.config), ...(rendered.container.env ?? []).map((variable) => variable.name)];
      expect(set.filter((name) => name.startsWith('MERCHANTS_FILE') || name === 'MERCHANTS_WATCH_INTERVAL_MS')).toEqual([]);
      expect([rendered.pod.volumes, rendered.container.volumeMounts]).toEqual([undefined, undefined]);
    });
  });

  it('takes every secret from the Secret by name, writes no secret value, and documents each key', () => {
    const secretNames = Object.keys(SECRET_VALUES);
    const exampleKeys = [...read('deploy/kubernetes/overlays/production/secrets.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=$/gm)].map((m) => m[1]);
    each((rendered) => {
      expect(Object.keys(rendered.secretKeys).sort()).toEqual([...secretNames].sort());
      expect(Object.entries(rendered.secretKeys).filter(([name, key]) => name !== key)).toEqual([]);
      expect(Object.keys(rendered.config).filter((name) => secretNames.includes(name) || /SECRET|TOKEN|PASSWORD/.test(name))).toEqual([]);
      expect((rendered.container.env ?? []).filter((variable) => variable.value !== undefined)).toEqual([]);
      expect(rendered.objects.filter((object) => object.kind === 'Secret')).toEqual([]);
      const text = JSON.stringify(rendered.objects);
      expect(text).not.toMatch(/[a-z]+:\/\/[^:@\s/"]+:[^@\s"]+@/);
      expect(text).not.toMatch(/sk_(live|test)_|pk_(live|test)_|whsec_/);
      // A keyring entry: an id, then the base64 of 32 bytes.
      expect(text).not.toMatch(/[A-Za-z0-9_-]+:[A-Za-z0-9+/]{43}=/);
    });
    expect(exampleKeys.sort()).toEqual([...secretNames].sort());
    expect(production.container.env?.find((variable) => variable.name === 'PAYSTACK_SECRET_KEY')?.valueFrom?.secretKeyRef?.optional).toBe(false);
    expect(read('.gitignore').split('\n')).toContain('deploy/kubernetes/overlays/production/secrets.env');
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
    expect(production.container.image).toMatch(/^[^:]+\/paysign\/payment-service:\d+\.\d+\.\d+$/);
  });

  it('lets only the monitoring namespace reach the metrics port, and webhooks reach public addresses only', () => {
    each((rendered, name) => {
      const policy = rendered.find<INetworkPolicy>('NetworkPolicy', 'payment-service').spec;
      expect(policy?.podSelector).toEqual(rendered.deployment.spec?.selector);
      expect(policy?.policyTypes).toEqual(['Ingress', 'Egress']);
      const ingress = policy?.ingress ?? [];
      expect(ingress.filter((rule) => rule.from === undefined).flatMap((rule) => rule.ports?.map((port) => port.port))).toEqual(['http']);
      expect(ingress.filter((rule) => rule.ports?.some((port) => port.port === 'metrics'))).toEqual([
        { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ port: 'metrics', protocol: 'TCP' }] },
      ]);
      const egressPorts = (policy?.egress ?? []).map((rule) => rule.ports?.map((port) => port.port));
      expect(egressPorts).toEqual([[53, 53], [5432, 6379], name === 'production' ? [443] : [443, 80]]);
      const outside = policy?.egress?.[2]?.to?.map((peer) => peer.ipBlock);
      expect(outside?.map((block) => block?.cidr)).toEqual(['0.0.0.0/0', '::/0']);
      expect(outside?.[0]?.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8']));
      expect(outside?.[1]?.except).toEqual(expect.arrayContaining(['fc00::/7', 'fe80::/10', '::1/128']));
    });
  });
});
