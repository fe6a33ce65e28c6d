#!/usr/bin/env bash
# Mesa: ./run.sh [opções do serve]  → prepara o ambiente e liga o companheiro (sessão em mesa.db)
#       ./run.sh test [args pytest]  → prepara o ambiente (e o sistema) e roda os testes
#       ./run.sh bench [--curto]     → a tabela de desempenho, ao lado do chão medido na mesma hora
#       ./run.sh crash [N]           → N kill -9 num servidor de verdade (padrão 200)
#       ./run.sh fuzz [N]            → N entradas malformadas por HTTP e Socket.IO (padrão 10000)
set -euo pipefail

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

ensure_venv() {
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
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "pacotes do sistema já presentes (chromium, espeak-ng, sox)"
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
  local status=0
  "$PY" -m pytest -q "$@" || status=$?
  if [ "$status" -eq 5 ]; then
    echo "erro: nenhum teste foi coletado" >&2
    exit 1
  fi
  exit "$status"
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
  test)
    shift
    run_tests "$@"
    ;;
  bench)
    shift
    ensure_venv
    ensure_install ".[test]" "-teste"
    exec "$PY" bench/live.py "$@"
    ;;
  crash)
    kills="$(count_or_default "${2:-}" 200 crash)"
    export MESA_CRASH_KILLS="$kills"
    run_tests tests/test_crash.py
    ;;
  fuzz)
    examples="$(count_or_default "${2:-}" 10000 fuzz)"
    export MESA_FUZZ_EXAMPLES="$examples"
    run_tests tests/test_fuzz.py
    ;;
esac

ensure_venv
ensure_install "." "" "$VENV/.instalado-teste"
# The evening must survive anything, kill -9 included: without --db the session lives in mesa.db.
case " $* " in
  *" --db "*|*" --db="*) ;;
  *) set -- --db "$ROOT/mesa.db" "$@" ;;
esac
exec "$VENV/bin/companion" serve "$@"
