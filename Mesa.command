#!/bin/bash
# Mesa para macOS: dois cliques instalam o Mesa (na primeira vez, e de novo a cada versão nova
# desta pasta) e ligam a mesa. O uv traz o próprio Python; a voz e a fala entram se houver
# pacote para este Mac, senão o Mesa liga sem elas e diz por quê.
cd "$(dirname "$0")" || exit 1
FOLDER="$(pwd)"
export PATH="$HOME/.local/bin:$PATH"

if ! command -v uv >/dev/null 2>&1; then
  echo "Instalando o uv (o instalador do Python)..."
  curl -LsSf https://astral.sh/uv/install.sh | sh || {
    echo "Não consegui instalar o uv. Confira a internet e tente de novo."
    read -r -p "Enter fecha esta janela. " _
    exit 1
  }
fi

echo "Instalando o Mesa (na primeira vez demora alguns minutos)..."
installed=0
for extras in "[voz,fala]" "[voz]" ""; do
  if uv tool install --quiet --reinstall --python 3.12 "companion$extras @ $FOLDER"; then
    installed=1
    break
  fi
done
if [ "$installed" -eq 0 ] && ! command -v mesa >/dev/null 2>&1; then
  echo "Não consegui instalar o Mesa. Confira a internet e tente de novo."
  read -r -p "Enter fecha esta janela. " _
  exit 1
fi

mesa "$@"
read -r -p "Mesa encerrado. Enter fecha esta janela. " _
