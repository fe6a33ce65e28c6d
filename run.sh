#!/usr/bin/env bash
# Mesa: ./run.sh [opções do serve]  → prepara o ambiente e liga o companheiro (sessão em mesa.db)
#       ./run.sh test [args pytest]  → prepara o ambiente (e o sistema) e roda os testes
#       ./run.sh bench [--curto]     → a tabela de desempenho, ao lado do chão medido na mesma hora
#       ./run.sh crash [N]           → N kill -9 num servidor de verdade (padrão 200)
#       ./run.sh fuzz [N]            → N entradas malformadas por HTTP e Socket.IO (padrão 10000)
#       ./run.sh modelo              → baixa o modelo de voz em português (e a voz do Piper) para models/
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
  local status=0 quiet=(-q)
  for arg in "$@"; do  # the caller's own -q/-v wins (a second -q would hide the summary)
    case "$arg" in -q*|-v*|--quiet|--verbose) quiet=() ;; esac
  done
  "$PY" -m pytest "${quiet[@]}" "$@" || status=$?
  if [ "$status" -eq 5 ]; then
    echo "erro: nenhum teste foi coletado" >&2
    exit 1
  fi
  exit "$status"
}

# ./run.sh modelo: the default Portuguese Vosk model into models/, its size and SHA-256 checked
# against tables/voz.yaml (modelos.baixar), then the Piper pt_BR voice beside it, checked the
# same way against tables/fala.yaml (piper.baixar).
fetch_model() {
  ensure_venv
  ensure_install ".[voz,fala]" "" "$VENV/.instalado-teste"
  local status=0
  fetch_vosk_model || status=$?
  "$PY" -m companion.speech.fetch || status=$?
  return "$status"
}

fetch_vosk_model() {
  "$PY" - <<'PYEOF'
import hashlib, sys, urllib.request, zipfile
from pathlib import Path
from companion.rules.loader import load_rules
from companion.voice.config import voice_config
from companion.voice.models import MODELS_DIR, is_model
config = voice_config(load_rules())
want = config.download
target = MODELS_DIR / config.default_model
if is_model(target):
    print(f"o modelo já está em {target}")
    sys.exit(0)
archive = MODELS_DIR / want.file
if not archive.is_file():
    print(f"baixando {want.url} ({want.size // 1_000_000} MB)")
    try:
        urllib.request.urlretrieve(want.url, archive)
    except OSError as error:
        print(f"erro: não consegui baixar ({error}); sem internet? veja models/README.md "
              "para fazê-lo à mão", file=sys.stderr)
        archive.unlink(missing_ok=True)
        sys.exit(1)
size = archive.stat().st_size
digest = hashlib.sha256(archive.read_bytes()).hexdigest()
if size != want.size:
    print(f"erro: {archive} tem {size} bytes, esperava {want.size}; apague-o e tente de novo",
          file=sys.stderr)
    sys.exit(1)
if want.sha256 and digest != want.sha256:
    print(f"erro: SHA-256 de {archive} é {digest}, esperava {want.sha256}", file=sys.stderr)
    sys.exit(1)
if not want.sha256:
    print(f"aviso: SHA-256 {digest} (ainda não anotado em tables/voz.yaml: confira e anote)")
with zipfile.ZipFile(archive) as packed:
    packed.extractall(MODELS_DIR)
archive.unlink()
print(f"modelo pronto em {target}" if is_model(target) else f"erro: {target} incompleto")
sys.exit(0 if is_model(target) else 1)
PYEOF
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
# The evening must survive anything, kill -9 included: without --db the session lives in mesa.db.
case " $* " in
  *" --db "*|*" --db="*) ;;
  *) set -- --db "$ROOT/mesa.db" "$@" ;;
esac
exec "$VENV/bin/companion" serve "$@"
