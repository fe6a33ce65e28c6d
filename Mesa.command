#!/bin/bash
# Mesa para macOS (e Linux: bash Mesa.command): dois cliques instalam o Mesa desta pasta na
# primeira vez e ligam a mesa; depois, só uma pasta com versão mais nova instala de novo (sem
# voltar atrás). O uv traz o próprio Python; o que instalar e atualizar é decidido em
# companion/cli/launcher.py, o mesmo do Windows.
cd "$(dirname "$0")" || exit 1
FOLDER="$(pwd)"
export PATH="$HOME/.local/bin:$PATH"

stop() {
  [ -n "$1" ] && echo "$1"
  read -r -p "Enter fecha esta janela. " _
  exit 1
}

if ! command -v uv >/dev/null 2>&1; then
  echo "Instalando o uv (o instalador do Python)..."
  script="$(mktemp)" || stop "Não consegui criar um arquivo temporário."
  # the download and the install checked one by one (a pipe into sh would hide a failed download)
  curl -LsSf https://astral.sh/uv/install.sh -o "$script" \
    || stop "Não consegui baixar o uv: sem internet? A primeira vez precisa dela."
  sh "$script" || stop "Não consegui instalar o uv. Confira a internet e tente de novo."
  rm -f "$script"
  command -v uv >/dev/null 2>&1 || stop "Instalei o uv, mas não o achei em ~/.local/bin."
fi

uv run --no-project --python "${UV_PYTHON:-3.12}" "$FOLDER/companion/cli/launcher.py"
status=$?
if [ "$status" -ne 0 ]; then
  # 3: the launcher said why; anything else is uv's (no Python yet and no internet)
  [ "$status" -eq 3 ] && stop ""
  stop "Não consegui preparar o Python do Mesa: a primeira vez precisa de internet."
fi

BIN="$(uv tool dir --bin)" || stop "Não achei onde o uv instalou o Mesa."
"$BIN/mesa" "$@"
status=$?
read -r -p "Mesa encerrado. Enter fecha esta janela. " _
exit "$status"
