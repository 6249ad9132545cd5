#!/usr/bin/env bash
# The Python SDK (sdk-python/): builds the wheel and sdist, installs the wheel into a virtualenv with
# the pinned test requirements, then runs ruff, mypy --strict and pytest against the INSTALLED wheel
# (not the source tree). Options:
#   --install   only build and install (the Python integration test, sdk-python/python.exhaustive.test.ts, calls this)
#   --fresh     delete the virtualenv first (CI on a fresh machine gets one anyway)
# TOOLGATE_PY_VENV: the virtualenv's place, absolute or relative to sdk-python/ (default sdk-python/.venv-test); PYTHON: the interpreter (3.10+).
set -euo pipefail
cd "$(dirname "$0")/../sdk-python"
started=$(date +%s)
venv=$(realpath -m "${TOOLGATE_PY_VENV:-.venv-test}") # absolute: the checks below run from other folders
python=${PYTHON:-python3}
install_only=0
for arg in "$@"; do
  case $arg in
    --install) install_only=1 ;;
    --fresh) rm -rf "$venv" ;;
    *) echo "Unknown option $arg (options: --install, --fresh)" >&2; exit 2 ;;
  esac
done

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
fi
# pip takes seconds to find every pin satisfied: ask it only when the pins changed since the last install
stamp="$venv/requirements-test.sha256"
pins=$(sha256sum requirements-test.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$pins" ]; then
  "$venv/bin/python" -m pip install -q -r requirements-test.txt
  echo "$pins" >"$stamp"
fi

# the wheel and sdist by the standard build backend (hatchling, pinned above; no isolated download)
rm -rf dist
"$venv/bin/python" -m build -q --no-isolation --sdist --wheel --outdir dist . >/dev/null
ls dist
wheel=$(ls dist/*.whl)
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps "$wheel"
# the tests must import the installed package, never src/
where=$(cd tests && "$venv/bin/python" -c "import toolgate; print(toolgate.__file__)")
case $where in
  */site-packages/toolgate/*) ;;
  *) echo "toolgate imports from $where, not from the installed wheel" >&2; exit 1 ;;
esac
[ "$install_only" = 1 ] && exit 0

"$venv/bin/ruff" check src tests tests_integration ../examples/loan-assistant-python ../bench/sdk-python.py
"$venv/bin/ruff" format --check src tests tests_integration ../examples/loan-assistant-python ../bench/sdk-python.py
"$venv/bin/mypy" src tests # each test folder has its own conftest module: one mypy run per folder
"$venv/bin/mypy" tests_integration ../examples/loan-assistant-python ../bench/sdk-python.py
# exit 5 is "no tests collected": a run that tested nothing must fail, and it does (set -e)
"$venv/bin/pytest" -q -p no:cacheprovider tests
echo "Python SDK: lint, types and tests passed in $(($(date +%s) - started)) s"
