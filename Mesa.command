#!/bin/bash
# Mesa para macOS: dois cliques instalam o Mesa (na primeira vez; depois, a versão desta pasta
# entra de novo, sem internet se der) e ligam a mesa. O uv traz o próprio Python; a voz e a fala
# entram se houver pacote para este Mac, senão o Mesa liga sem elas e diz por quê.
cd "$(dirname "$0")" || exit 1
FOLDER="$(pwd)"
export PATH="$HOME/.local/bin:$PATH"

stop() {
  echo "$1"
  read -r -p "Enter fecha esta janela. " _
  exit 1
}

# The best extras that install (voice and speech, voice, none); 0 when one did.
install() {
  local extras
  for extras in "[voz,fala]" "[voz]" ""; do
    uv tool install --quiet --reinstall --python 3.12 "$@" "companion$extras @ $FOLDER" \
      && return 0
  done
  return 1
}

if ! command -v uv >/dev/null 2>&1; then
  echo "Instalando o uv (o instalador do Python)..."
  curl -LsSf https://astral.sh/uv/install.sh | sh \
    || stop "Não consegui instalar o uv. Confira a internet e tente de novo."
fi

if command -v mesa >/dev/null 2>&1; then
  # already installed: this folder's version from uv's cache (no internet needed), or with the
  # internet when it needs something new; the installed Mesa starts in any case
  install --offline 2>/dev/null || install 2>/dev/null \
    || echo "aviso: não consegui atualizar o Mesa; ligando o que já está instalado"
else
  echo "Instalando o Mesa (na primeira vez demora alguns minutos)..."
  install || stop "Não consegui instalar o Mesa. Confira a internet e tente de novo."
fi

mesa "$@"
read -r -p "Mesa encerrado. Enter fecha esta janela. " _
