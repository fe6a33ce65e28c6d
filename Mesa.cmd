@echo off
rem Mesa para Windows: dois cliques instalam o Mesa (na primeira vez, e de novo a cada versao
rem nova desta pasta) e ligam a mesa. O uv traz o proprio Python; a voz e a fala entram se
rem houver pacote para este computador, senao o Mesa liga sem elas e diz por que.
chcp 65001 >nul
setlocal
set "PASTA=%~dp0"
set "PASTA=%PASTA:~0,-1%"
set "PATH=%USERPROFILE%\.local\bin;%PATH%"

where uv >nul 2>nul
if errorlevel 1 (
  echo Instalando o uv, o instalador do Python...
  powershell -NoProfile -ExecutionPolicy ByPass -Command "irm https://astral.sh/uv/install.ps1 | iex"
  if errorlevel 1 goto erro
)

echo Instalando o Mesa (na primeira vez demora alguns minutos)...
uv tool install --quiet --reinstall --python 3.12 "companion[voz,fala] @ %PASTA%"
if not errorlevel 1 goto ligar
uv tool install --quiet --reinstall --python 3.12 "companion[voz] @ %PASTA%"
if not errorlevel 1 goto ligar
uv tool install --quiet --reinstall --python 3.12 "companion @ %PASTA%"
if not errorlevel 1 goto ligar
where mesa >nul 2>nul
if errorlevel 1 goto erro

:ligar
mesa %*
echo.
pause
exit /b 0

:erro
echo Nao consegui instalar o Mesa. Confira a internet e tente de novo.
pause
exit /b 1
