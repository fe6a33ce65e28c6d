#!/usr/bin/env bash
# Mesa: ./run.sh [opções do serve]  → prepara o ambiente e liga o companheiro (a campanha "mesa"
#                                      na pasta do Mestre; --campanha NOME, ou --db ARQUIVO)
#       ./run.sh test [args pytest]  → prepara o ambiente (e o sistema) e roda os testes
#         (sem argumentos: todos menos os lentos; --lentos: só os lentos; --tudo: todos)
#       ./run.sh bench [--curto]     → a tabela de desempenho, ao lado do chão medido na mesma hora
#       ./run.sh crash [N]           → N kill -9 num servidor de verdade (padrão 200)
#       ./run.sh fuzz [N]            → N entradas malformadas por HTTP e Socket.IO (padrão 10000)
#       ./run.sh modelo              → baixa o modelo de voz em português (e a voz do Piper) para a
#                                      pasta do Mestre (o mesmo que: mesa modelo)
set -euo pipefail

CALLER="$PWD"  # where the GM is: a relative --db is theirs, not the program folder's
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

# Debian's python3 needs python3-venv (ensurepip) before `python3 -m venv` works.
ensure_python_venv() {
  [ -x "$PY" ] && return 0
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "erro: falta o pacote python3-venv; instale com: sudo apt-get install python3-venv" >&2
    exit 1
  fi
  echo "apt-get install -y python3-venv"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
}

# An older Python is refused at once, in one line (companion/__init__.py says it), before pip
# spends minutes finding nothing that installs.
ensure_python_version() {
  local python="python3"
  [ -x "$PY" ] && python="$PY"
  "$python" -c 'import companion' || exit 2
}

ensure_venv() {
  ensure_python_version
  ensure_python_venv
  if [ ! -x "$PY" ]; then
    echo "criando o ambiente Python em .venv"
    python3 -m venv "$VENV"
  fi
}

# pip install -e TARGET only when pyproject.toml changed since the last install. The stamp files
# in .venv hold the pyproject hash; an install with the test extras also counts for the plain one.
ensure_install() {
  local target="$1" stamp="$VENV/.instalado$2" also="${3:-}"
  local wanted
  wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
  for done_stamp in "$stamp" $also; do
    if [ -f "$done_stamp" ] && [ "$(cat "$done_stamp")" = "$wanted" ]; then
      return 0
    fi
  done
  echo "instalando o projeto ($target)"
  "$PY" -m pip install --quiet -e "$target"
  echo "$wanted" > "$stamp"
}

ensure_system_packages() {
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
  command -v sox >/dev/null 2>&1 || missing+=(sox)
  compgen -G "/usr/lib/*/libportaudio.so.2" >/dev/null || missing+=(libportaudio2)
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "pacotes do sistema já presentes (chromium, espeak-ng, sox, libportaudio2)"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "aviso: faltam ${missing[*]} e não sou root; instale-os com apt-get" >&2
    return 0
  fi
  echo "apt-get update && apt-get install -y ${missing[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
}

run_tests() {
  ensure_system_packages
  ensure_venv
  ensure_install ".[test]" "-teste"
  # the import contract (pyproject.toml [tool.importlinter]) first: a broken one fails the run
  echo "lint-imports (o contrato de imports em pyproject.toml)"
  "$VENV/bin/lint-imports" --no-cache
  local status=0 quiet=(-q) chosen=()
  # every test but the slowest (`lento`, tests/conftest.py SLOW), on every core; --lentos: only
  # those; --tudo: all of them (.ci/run runs the first two). Options pass on to pytest; naming
  # tests (a path, -k, -m) runs just those, as given. Each module stays on one worker
  # (loadscope): a module's fixtures (Chromium, a real install, the evening told in order) are
  # made once, and its tests run in their order.
  local named=0
  for arg in "$@"; do
    case "$arg" in -*) ;; *) named=1 ;; esac
  done
  case "${1:-}" in
    --lentos) shift; chosen=(-m lento -n auto --dist loadscope) ;;
    --tudo) shift; chosen=(-n auto --dist loadscope) ;;
    *) if [ "$named" -eq 0 ]; then
         chosen=(-m "not lento" -n auto --dist loadscope)
         echo "testes (sem os lentos: ./run.sh test --lentos roda esses, e .ci/run roda todos)"
       fi ;;
  esac
  for arg in "${chosen[@]}" "$@"; do  # the caller's own -q/-v wins (a second -q would hide the summary)
    case "$arg" in -q*|-v*|--quiet|--verbose) quiet=() ;; esac
  done
  "$PY" -m pytest "${quiet[@]}" "${chosen[@]}" "$@" || status=$?
  if [ "$status" -eq 5 ]; then
    echo "erro: nenhum teste foi coletado" >&2
    exit 1
  fi
  exit "$status"
}

# ./run.sh modelo: `companion modelo` (companion/cli/model_download.py): the default Portuguese Vosk model
# and the Piper pt_BR voice into the GM's models folder, sizes and SHA-256 checked against
# tables/voz.yaml (modelos.baixar) and tables/fala.yaml (piper.baixar).
fetch_model() {
  ensure_venv
  ensure_install ".[voz,fala]" "" "$VENV/.instalado-teste"
  "$VENV/bin/companion" modelo
}

# Bytecode for the project's own modules, as an installed package has it: Python writes it by
# itself unless PYTHONDONTWRITEBYTECODE is set, and then every start compiles ~50 modules again.
compile_project() {
  "$PY" -m compileall -q companion >/dev/null || true
}

# A whole number for crash/fuzz, or a clear message.
count_or_default() {
  local value="${1:-$2}"
  if ! [[ "$value" =~ ^[0-9]+$ ]] || [ "$value" -lt 1 ]; then
    echo "erro: '$value' não é um número inteiro positivo; use, por exemplo, ./run.sh $3 $2" >&2
    exit 2
  fi
  echo "$value"
}

case "${1:-}" in
  modelo)
    fetch_model
    exit $?
    ;;
  test)
    shift
    run_tests "$@"
    ;;
  bench)
    shift
    ensure_venv
    ensure_install ".[test]" "-teste"
    compile_project
    exec "$PY" bench/live.py "$@"
    ;;
  crash)
    kills="$(count_or_default "${2:-}" 200 crash)"
    export MESA_CRASH_KILLS="$kills"
    run_tests tests/store/test_crash.py
    ;;
  fuzz)
    examples="$(count_or_default "${2:-}" 10000 fuzz)"
    export MESA_FUZZ_EXAMPLES="$examples"
    run_tests tests/server/test_fuzz.py
    ;;
esac

ensure_venv
ensure_install ".[voz,fala]" "" "$VENV/.instalado-teste"
compile_project
# The evening must survive anything, kill -9 included: `mesa` keeps the campaign in the GM's data
# folder (the one called "mesa" unless --campanha NOME or --db ARQUIVO says otherwise).
cd "$CALLER"
exec "$VENV/bin/mesa" "$@"
