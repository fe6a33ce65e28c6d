@echo off
rem Mesa para Windows: dois cliques instalam o Mesa (na primeira vez; depois, a versao desta
rem pasta entra de novo, sem internet se der) e ligam a mesa. O uv traz o proprio Python; a voz
rem e a fala entram se houver pacote para este computador, senao o Mesa liga sem elas e diz por que.
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

where mesa >nul 2>nul
if errorlevel 1 goto primeira
rem ja instalado: a versao desta pasta pelo cache do uv (sem internet), ou com a internet
call :instalar --offline 2>nul
if not errorlevel 1 goto ligar
call :instalar 2>nul
if errorlevel 1 echo aviso: nao consegui atualizar o Mesa; ligando o que ja esta instalado
goto ligar

:primeira
echo Instalando o Mesa (na primeira vez demora alguns minutos)...
call :instalar
if errorlevel 1 goto erro

:ligar
mesa %*
echo.
pause
exit /b 0

rem the best extras that install (voice and speech, voice, none)
:instalar
uv tool install --quiet --reinstall --python 3.12 %1 "companion[voz,fala] @ %PASTA%" && exit /b 0
uv tool install --quiet --reinstall --python 3.12 %1 "companion[voz] @ %PASTA%" && exit /b 0
uv tool install --quiet --reinstall --python 3.12 %1 "companion @ %PASTA%" && exit /b 0
exit /b 1

:erro
echo Nao consegui instalar o Mesa. Confira a internet e tente de novo.
pause
exit /b 1
