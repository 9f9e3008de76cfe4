#!/usr/bin/env node
// Draws which folders of apps/api/src import which, as a mermaid graph, and
// fails (exit 1) on a circle between folders or an import that
// apps/api/layers.js does not allow. `--mermaid` prints the graph only.
const fs = require('node:fs');
const path = require('node:path');
const { API_LAYERS } = require('../../apps/api/layers.js');

const SRC = path.resolve(__dirname, '../../apps/api/src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.\.?\/[^']+)'/g;

/** Every import between two folders of `src`, as folder -> folders; specs included, root files left out. A folder's subfolders (the provider wing's) are part of it. */
function folderEdges(src = SRC) {
  const edges = new Map();
  for (const folder of fs.readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)) {
    const targets = new Set();
    for (const file of filesUnder(path.join(src, folder))) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const [top, ...rest] = path.relative(src, path.resolve(path.dirname(file), match[1])).split(path.sep);
        if (rest.length > 0 && top !== '..') targets.add(top);
      }
    }
    targets.delete(folder);
    edges.set(folder, [...targets].sort());
  }
  return edges;
}

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The first circle found, as a list of folders, or undefined. */
function findCircle(edges) {
  const state = new Map();
  let circle;
  const visit = (folder, trail) => {
    if (circle || state.get(folder) === 'done') return;
    if (state.get(folder) === 'visiting') {
      circle = [...trail.slice(trail.indexOf(folder)), folder];
      return;
    }
    state.set(folder, 'visiting');
    for (const next of edges.get(folder) ?? []) visit(next, [...trail, folder]);
    state.set(folder, 'done');
  };
  for (const folder of edges.keys()) visit(folder, []);
  return circle;
}

/** Imports the layer table does not allow, and folders it does not name. */
function disallowed(edges, layers = API_LAYERS) {
  const problems = [];
  for (const [folder, targets] of edges) {
    if (!(folder in layers)) problems.push(`${folder} is not in apps/api/layers.js`);
    for (const target of targets) if (!(layers[folder] ?? []).includes(target)) problems.push(`${folder} imports ${target}`);
  }
  return problems;
}

function mermaid(edges) {
  const lines = ['graph BT'];
  for (const [folder, targets] of edges) for (const target of targets) lines.push(`  ${id(folder)}[${folder}] --> ${id(target)}[${target}]`);
  return lines.join('\n');
}

const id = (folder) => folder.replace(/-/g, '_');

if (require.main === module) {
  const edges = folderEdges();
  if (process.argv.includes('--mermaid')) {
    console.log(mermaid(edges));
  } else {
    const circle = findCircle(edges);
    const problems = disallowed(edges);
    console.log(`${edges.size} folders, ${[...edges.values()].reduce((n, targets) => n + targets.length, 0)} imports between them`);
    if (circle) console.log(`circle: ${circle.join(' -> ')}`);
    for (const problem of problems) console.log(`not allowed: ${problem}`);
    if (circle || problems.length > 0) process.exit(1);
    console.log('no circle, and every import is one apps/api/layers.js allows');
  }
}

module.exports = { folderEdges, findCircle, disallowed, mermaid };
