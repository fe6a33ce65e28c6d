@echo off
rem Mesa para Windows: dois cliques instalam o Mesa desta pasta na primeira vez e ligam a mesa;
rem depois, só uma pasta com versão mais nova instala de novo (sem voltar atrás). O uv traz o
rem próprio Python; o que instalar e atualizar é decidido em companion\cli\launcher.py, o mesmo
rem do macOS e do Linux. Salvo em UTF-8: a página de código 65001 mostra os acentos.
chcp 65001 >nul
setlocal
set "PASTA=%~dp0"
set "PASTA=%PASTA:~0,-1%"
set "PATH=%USERPROFILE%\.local\bin;%PATH%"

where uv >nul 2>nul
if not errorlevel 1 goto tem_uv
echo Instalando o uv, o instalador do Python...
powershell -NoProfile -ExecutionPolicy ByPass -Command "$ErrorActionPreference = 'Stop'; irm https://astral.sh/uv/install.ps1 | iex"
if errorlevel 1 goto sem_uv
where uv >nul 2>nul
if errorlevel 1 goto sem_uv

:tem_uv
set "PYTHON=3.12"
if defined UV_PYTHON set "PYTHON=%UV_PYTHON%"
uv run --no-project --python "%PYTHON%" "%PASTA%\companion\cli\launcher.py"
set "STATUS=%errorlevel%"
rem 3: the launcher said why; anything else is uv's (no Python yet and no internet)
if "%STATUS%"=="3" goto parar
if not "%STATUS%"=="0" goto sem_python

set "BIN="
for /f "usebackq delims=" %%d in (`uv tool dir --bin`) do set "BIN=%%d"
if not defined BIN goto sem_python
"%BIN%\mesa.exe" %*
echo.
echo Mesa encerrado.
pause
exit /b 0

:sem_uv
echo Não consegui instalar o uv: sem internet? A primeira vez precisa dela.
goto parar

:sem_python
echo Não consegui preparar o Python do Mesa: a primeira vez precisa de internet.

:parar
pause
exit /b 1
