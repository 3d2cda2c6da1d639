// Validates Kubernetes objects against the API's schemas, as `kubectl apply --validate=strict`
// would before anything reaches a cluster: each object's fields and types against the OpenAPI
// schema of its apiVersion and kind (kubernetes-models; the Prometheus Operator's CRDs from
// @kubernetes-models/prometheus-operator), and no field the schema does not know.
//
// Usage: node validate.js NODE_MODULES_DIR OBJECTS.json
//   OBJECTS.json: [{"source": "where it came from", "object": {...}}, ...]
// Prints one line per object ("ok SOURCE: Kind/name" or "invalid SOURCE: Kind/name: why") and
// exits 1 when any is invalid, 2 on bad usage.
'use strict';
const fs = require('fs');

const [modules, objectsFile] = process.argv.slice(2);
if (!modules || !objectsFile) {
  console.error('usage: node validate.js NODE_MODULES_DIR OBJECTS.json');
  process.exit(2);
}

// The package whose models cover an API group; the core group's apiVersion has no group.
const packages = {
  '': 'kubernetes-models',
  apps: 'kubernetes-models',
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
};

// The model class of apiVersion and kind, or an error naming what is missing.
function model(apiVersion, kind) {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return { error: 'apiVersion and kind must both be strings' };
  }
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const pkg = packages[group];
  if (!pkg) return { error: `no schemas for the API group "${group}" here (${apiVersion})` };
  try {
    const file = require.resolve(`${pkg}/${apiVersion}/${kind}`, { paths: [modules] });
    return { ctor: require(file)[kind] };
  } catch (e) {
    return { error: `no ${kind} in ${apiVersion} (${pkg})` };
  }
}

// The schemas' validators are generated code that reads each property their schema declares
// (also to find it absent) and every key of a map they allow: a field of the object that the
// validator never read is one the schema does not know, which `kubectl --validate=strict` and the
// API server's strict field validation refuse. So the object is validated through proxies that
// note each property read.
function tracked(root) {
  const reads = new Map();
  const proxies = new WeakMap();
  const wrap = (value) => {
    if (value === null || typeof value !== 'object') return value;
    if (proxies.has(value)) return proxies.get(value);
    reads.set(value, new Set());
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        if (typeof key === 'string') reads.get(target).add(key);
        return wrap(Reflect.get(target, key, receiver));
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  const unknown = (value, at) => {
    if (value === null || typeof value !== 'object' || !reads.has(value)) return [];
    return Object.keys(value).flatMap((key) => {
      const where = `${at}/${key}`;
      if (!Array.isArray(value) && !reads.get(value).has(key)) return [where];
      return unknown(value[key], where);
    });
  };
  return { proxy: wrap(root), unknown: () => unknown(root, '') };
}

function check(object) {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    return ['not a mapping'];
  }
  const { ctor, error } = model(object.apiVersion, object.kind);
  if (error) return [error];
  const problems = [];
  if (!object.metadata || typeof object.metadata.name !== 'string' || !object.metadata.name) {
    problems.push('metadata.name: missing');
  }
  const t = tracked(object);
  try {
    ctor.prototype.validate.call(t.proxy);
  } catch (e) {
    problems.push(e.message.trim());
  }
  // An object the schema already refused may not have been read through: only list unknown
  // fields of one it accepted, where every known field was looked at.
  if (problems.length === 0) {
    problems.push(...t.unknown().map((field) => `${field}: unknown field`));
  }
  return problems;
}

const entries = JSON.parse(fs.readFileSync(objectsFile, 'utf8'));
let invalid = 0;
for (const { source, object } of entries) {
  const name = `${object && object.kind}/${object && object.metadata && object.metadata.name}`;
  const problems = check(object);
  if (problems.length === 0) {
    console.log(`ok ${source}: ${name}`);
  } else {
    invalid++;
    console.log(`invalid ${source}: ${name}: ${problems.join('; ')}`);
  }
}
process.exit(invalid ? 1 : 0);
