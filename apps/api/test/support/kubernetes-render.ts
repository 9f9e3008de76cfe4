// Rendering deploy/kubernetes with kubectl kustomize, validating each object
// against the Kubernetes schemas, and reading what the checks rely on: the
// deploy-kubernetes suite's tools.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { BlockList } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ServiceMonitor, type IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress, type IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace, type INamespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { ServiceAccount, type IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';

export const root = path.resolve(__dirname, '../../../..');
export const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

export interface KubernetesObject {
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
export const SCHEMAS: Record<string, (object: KubernetesObject) => void> = {
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

export function validateObject(object: KubernetesObject): void {
  const schema = SCHEMAS[`${object.apiVersion}/${object.kind}`];
  if (!schema) throw new Error(`no schema for ${object.apiVersion} ${object.kind}: add its kubernetes-models class to SCHEMAS`);
  schema(object);
}

export const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });

/** The objects `kubectl kustomize` renders from a directory of a deploy/kubernetes tree (the repository's, or a copy). */
export function render(dir: string, tree = path.join(root, 'deploy/kubernetes')): KubernetesObject[] {
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
export function describeWithKubectl(name: string, suite: () => void): void {
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
export const README_VARIABLES = new Set([...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string));

/**
 * Test values for the keys of payment-service-secrets, of the forms production
 * accepts. Made by openssl rand -base64 32 and openssl rand -hex 20.
 */
export const SECRET_VALUES: Record<string, string> = {
  DATABASE_URL: 'postgres://paysign@postgres.paysign.svc:5432/paysign',
  DATABASE_MIGRATION_URL: 'postgres://paysign_owner@postgres.paysign.svc:5432/paysign',
  REDIS_URL: 'redis://redis.paysign.svc:6379',
  CHECKOUT_TOKEN_SECRET: 'kS4xhGqz+K4PkI9MfDFyoTGMIZfGwV7DE6KOjCOd91I=',
  PAYSTACK_SECRET_KEY: 'sk_live_04984c053a06bf7a504e13820d8344f350838fff',
};

/** A test value for the Secret payment-service-metrics-token, made by openssl rand -base64 32. */
export const METRICS_TOKEN_VALUE = 'd2/LZoWFDu3vaNvCDJvedTnoSheONT+v4CxdtO3nFD8=';

/** A test value for the Secret payment-service-keyring: one key, made by openssl rand -base64 32. */
export const SECRETS_KEYRING_VALUE = 'k1:LLYBFPQ4mNU4JbnjJbPE7TbHCTaGDhFv+hpELpyrKU8=';

/** The overlay's git-ignored files, each the Secret it becomes and the test values an operator would write in it. */
export const SECRET_FILES = {
  'secrets.env': { secret: 'payment-service-secrets', values: SECRET_VALUES },
  'keyring.env': { secret: 'payment-service-keyring', values: { SECRETS_KEYRING: SECRETS_KEYRING_VALUE } },
  'metrics-token.env': { secret: 'payment-service-metrics-token', values: { METRICS_TOKEN: METRICS_TOKEN_VALUE } },
} satisfies Record<string, { secret: string; values: Record<string, string> }>;
export type SecretFile = keyof typeof SECRET_FILES;

/** The test values of each Secret, by the name the base gives it. */
export const TEST_SECRETS: Record<string, Record<string, string>> = Object.fromEntries(Object.values(SECRET_FILES).map(({ secret, values }) => [secret, values]));

/** Other values, made by openssl rand -base64 32, that an operator changes a file to. */
export const CHANGED_SECRET_FILES: Record<SecretFile, Record<string, string>> = {
  'secrets.env': { ...SECRET_VALUES, CHECKOUT_TOKEN_SECRET: 'sgGbDwhu70wQtb8gemcbateZ5BS2zkdBog44cfl9Wqg=' },
  'keyring.env': { SECRETS_KEYRING: `${SECRETS_KEYRING_VALUE},k2:XOoZFEeR+LjcPXCV+RTkppwr6X+EMG7U7633gJ2p3+s=` },
  'metrics-token.env': { METRICS_TOKEN: '2ZP9/Nd3yJKh0d7jxH/gDx2bRUiGr1qBNI+3BCftpxQ=' },
};

export const envFile = (values: Record<string, string>) => `${Object.entries(values).map(([name, value]) => `${name}=${value}`).join('\n')}\n`;

/**
 * The production overlay as an operator renders it: from a copy of
 * deploy/kubernetes with the three secret files written (the test values,
 * or `files`), and `config.env` edited by `editConfig`.
 */
export function renderProduction(files: Partial<Record<SecretFile, Record<string, string>>> = {}, editConfig: (text: string) => string = (text) => text): KubernetesObject[] {
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
export function secretData(secret: ISecret): Record<string, string> {
  return Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
}

/** `cidr` and `other` share an address. */
export function overlaps(cidr: string, other: string): boolean {
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
export const NON_PUBLIC_RANGES = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16', '::1/128', 'fc00::/7', 'fe80::/10'];

/** The documentation ranges (RFC 5737, RFC 3849), which reach nothing: the overlay's placeholders are in them. */
export const DOCUMENTATION_RANGES = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'];

/** A label selector that selects something in particular: `{}` selects everything. */
export const selectsSome = (selector: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | undefined) =>
  Object.keys(selector?.matchLabels ?? {}).length > 0 || (selector?.matchExpressions ?? []).length > 0;

/** A size of ingress-nginx (nginx's `64k`, `1m`), in bytes. */
export function nginxSizeBytes(size: string): number {
  const match = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (!match) throw new Error(`not an nginx size: ${size}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] as string).toLowerCase()] as number;
  return Number(match[1]) * unit;
}

/** What the manifests hand one pod. */
export class Rendered {
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
