#!/usr/bin/env bash
# System packages the tests need (Debian): chromium for the web UI end-to-end test.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium missing and not root: the browser e2e test (test/api/e2e.test.ts) will fail; run this script as root" >&2
  fi
fi
# py-spy for the stall tests (stacks named by function): a prebuilt wheel, seconds to install; the tests
# skip only the stack-name assertions without it, so a failed install is a warning, not a CI failure.
if ! command -v py-spy >/dev/null 2>&1; then
  timeout 120 python3 -m pip install --quiet --disable-pip-version-check py-spy >/dev/null 2>&1 \
    && { command -v pyenv >/dev/null 2>&1 && pyenv rehash || true; } \
    || echo "py-spy could not be installed: the stall tests' stack-name assertions are skipped" >&2
fi
# Prometheus for the Harbor canary's --prometheus checks (test/harbor/canary.test.ts runs a real one).
if ! command -v prometheus >/dev/null 2>&1 && [ ! -x /usr/bin/prometheus ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  else
    echo "prometheus missing and not root: test/harbor/canary.test.ts will fail; run this script as root" >&2
  fi
fi
# PostgreSQL server binaries for the tests that run the archive on PostgreSQL (the postgres vitest project;
# test/backing-services.ts initdb's a throwaway cluster per run under /usr/lib/postgresql/<v>/bin; no service is enabled).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  else
    echo "PostgreSQL missing and not root: the postgres test project is skipped (CI fails), test/archive/backends.test.ts and test/api/replicas.test.ts fail; run this script as root" >&2
  fi
fi
