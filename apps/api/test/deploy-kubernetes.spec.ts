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
import { parse } from 'yaml';
import { type IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { type IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import { type IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { type ISecret } from 'kubernetes-models/v1/Secret';
import { type IService } from 'kubernetes-models/v1/Service';
import { loadConfig } from '../src/config/app-config';
import { read, validateObject, render, describeWithKubectl, README_VARIABLES, SECRET_VALUES, METRICS_TOKEN_VALUE, SECRETS_KEYRING_VALUE, SECRET_FILES, CHANGED_SECRET_FILES, renderProduction, secretData, overlaps, NON_PUBLIC_RANGES, DOCUMENTATION_RANGES, selectsSome, nginxSizeBytes, Rendered, type KubernetesObject, type SecretFile } from './support/kubernetes-render';

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
