# Sourced by the test scripts: the shell side of support/skip.h.
# skip_test REASON: what no CI machine has (a GPU); always a skip (exit 77).
# missing_dependency REASON: something scripts/install-deps installs (Wine,
# Xvfb, lavapipe, the validation layer, mingw-w64); a skip on a developer's
# machine, a failure under CI (CI set) or with D3DCAP_REQUIRE_ALL=1.
skip_test() {
  echo "SKIP: $*"
  exit 77
}

require_all_dependencies() {
  [[ (-n ${CI:-} && ${CI:-} != false && ${CI:-} != 0) || ${D3DCAP_REQUIRE_ALL:-} == 1 ]]
}

missing_dependency() {
  if require_all_dependencies; then
    echo "FAIL: $* (scripts/install-deps installs it; CI or D3DCAP_REQUIRE_ALL=1 needs every dependency)"
    exit 1
  fi
  skip_test "$@"
}
