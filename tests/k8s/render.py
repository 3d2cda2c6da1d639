#!/usr/bin/env python3
"""Renders a kustomization directory into the objects `kubectl apply -k DIR` would send, for
tests/e2e/k8s_manifests.sh, where no kubectl runs: its resources (files, or directories holding a
kustomization), its components (kind Component, their resources) and its secretGenerator's
Secrets. Only the features deploy/kubernetes uses; any other kustomization key is an error, so a
patch or transformer added later cannot slip past the schema check unrendered.

Usage: render.py DIR  -> JSON [{"source": "path of the file", "object": {...}}, ...] on stdout.
"""
import base64
import json
import os
import sys

import yaml

KINDS = {
    "Kustomization": "kustomize.config.k8s.io/v1beta1",
    "Component": "kustomize.config.k8s.io/v1alpha1",
}
KNOWN_KEYS = {"apiVersion", "kind", "resources", "components", "generatorOptions", "secretGenerator"}


class RenderError(Exception):
    pass


def load_kustomization(directory, kind):
    path = os.path.join(directory, "kustomization.yaml")
    if not os.path.isfile(path):
        raise RenderError(f"{path}: missing")
    with open(path) as f:
        doc = yaml.safe_load(f)
    if not isinstance(doc, dict):
        raise RenderError(f"{path}: not a mapping")
    if doc.get("kind") != kind or doc.get("apiVersion") != KINDS[kind]:
        raise RenderError(f"{path}: want kind {kind}, apiVersion {KINDS[kind]}; got "
                          f"{doc.get('kind')}, {doc.get('apiVersion')}")
    unknown = sorted(set(doc) - KNOWN_KEYS)
    if unknown:
        raise RenderError(f"{path}: {', '.join(unknown)}: not rendered by this test's renderer")
    return path, doc


def secret(directory, path, generator, options):
    # Without disableNameSuffixHash kustomize appends a content hash to the name, which this
    # renderer does not compute: the references to the Secret would then be checked against the
    # wrong name.
    if not options.get("disableNameSuffixHash"):
        raise RenderError(f"{path}: secretGenerator without disableNameSuffixHash: true")
    data = {}
    for entry in generator.get("files", []):
        key, _, source = entry.rpartition("=")
        source_path = os.path.join(directory, source)
        if not os.path.isfile(source_path):
            raise RenderError(f"{path}: secretGenerator {generator['name']}: {source} is missing "
                              "(make it with deploy/make-web-secrets)")
        with open(source_path, "rb") as f:
            data[key or os.path.basename(source)] = base64.b64encode(f.read()).decode()
    for entry in generator.get("literals", []):
        key, _, value = entry.partition("=")
        data[key] = base64.b64encode(value.encode()).decode()
    metadata = {"name": generator["name"]}
    if "namespace" in generator:
        metadata["namespace"] = generator["namespace"]
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": metadata, "data": data}


def render(directory, kind="Kustomization"):
    path, doc = load_kustomization(directory, kind)
    out = []
    for resource in doc.get("resources", []):
        target = os.path.normpath(os.path.join(directory, resource))
        if os.path.isdir(target):
            out += render(target)
        elif os.path.isfile(target):
            with open(target) as f:
                out += [{"source": target, "object": o} for o in yaml.safe_load_all(f) if o is not None]
        else:
            raise RenderError(f"{path}: resource {resource}: no such file or directory")
    for component in doc.get("components", []):
        out += render(os.path.normpath(os.path.join(directory, component)), "Component")
    for generator in doc.get("secretGenerator", []):
        out.append({"source": path, "object": secret(directory, path, generator,
                                                     doc.get("generatorOptions", {}))})
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: render.py DIR")
    try:
        objects = render(sys.argv[1])
    except (RenderError, OSError, yaml.YAMLError) as e:
        sys.exit(f"render.py: {e}")
    seen = set()
    for entry in objects:
        o = entry["object"]
        ident = (o.get("apiVersion"), o.get("kind"), (o.get("metadata") or {}).get("namespace"),
                 (o.get("metadata") or {}).get("name"))
        if ident in seen:
            sys.exit(f"render.py: {entry['source']}: {ident} appears twice (kustomize refuses that)")
        seen.add(ident)
    json.dump(objects, sys.stdout)


if __name__ == "__main__":
    main()
