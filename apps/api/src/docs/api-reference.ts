import { parse } from 'yaml';

interface Operation {
  summary?: string;
  description?: string;
  security?: unknown[];
  requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> };
  responses: Record<string, { description?: string; $ref?: string }>;
}

interface Contract {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { description?: string }>; schemas: { ErrorCode: { enum: string[] } } };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Renders the contract as a self-contained HTML reference page (no scripts, no external assets). */
export function renderApiReference(contractYaml: string): string {
  const contract = parse(contractYaml) as Contract;
  const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );
  const sections = operations.map(({ path, method, op }) => {
    const example = Object.values(op.requestBody?.content?.['application/json']?.examples ?? {})[0]?.value;
    const responses = Object.entries(op.responses)
      .map(([status, r]) => {
        const description = r.$ref ? contract.components.responses[r.$ref.split('/').pop() as string]?.description : r.description;
        return `<tr><td><code>${escape(status)}</code></td><td>${escape(description ?? '')}</td></tr>`;
      })
      .join('');
    const signed = op.security && op.security.length === 0 ? 'Unsigned.' : 'Signed: send the six signing headers (see docs/protocol.md).';
    return `<section><h2><span class="m">${method.toUpperCase()}</span> <code>${escape(path)}</code></h2>
<p><strong>${escape(op.summary ?? '')}</strong>. ${escape(signed)}</p><p>${escape(op.description ?? '')}</p>
${example === undefined ? '' : `<h3>Request example</h3><pre>${escape(JSON.stringify(example, null, 2))}</pre>`}
<h3>Responses</h3><table><tr><th>Status</th><th>Meaning</th></tr>${responses}</table></section>`;
  });
  const codes = contract.components.schemas.ErrorCode.enum.map((c) => `<code>${escape(c)}</code>`).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(contract.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}pre{background:#f4f5f7;padding:.8rem;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}.m{background:#0b5;color:#fff;padding:0 .4rem;border-radius:3px}section{margin-top:2.5rem}</style></head>
<body><h1>${escape(contract.info.title)} <small>${escape(contract.info.version)}</small></h1><pre>${escape(contract.info.description ?? '')}</pre>
<p>Machine-readable contract: <a href="/payment/openapi.yaml">/payment/openapi.yaml</a>.</p>${sections.join('\n')}
<section><h2>Error codes</h2><p>${codes}</p></section></body></html>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
