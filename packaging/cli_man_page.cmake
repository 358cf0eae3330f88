# Writes kernelwright-cli(1) from the CLI's own --help texts, so the man page
# never says something the program does not: the command list of
# `kernelwright-cli --help`, then each command's `COMMAND --help` verbatim.
# cmake -DCLI=path/to/kernelwright-cli -DVERSION=x.y.z -DOUT=kernelwright-cli.1.gz -P cli_man_page.cmake
cmake_minimum_required(VERSION 3.25)

function(help_of out)
  execute_process(COMMAND ${CLI} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "`kernelwright-cli ${ARGN} --help` failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Verbatim text in roff: backslashes escaped, control characters at a line's start neutralized.
function(roff_verbatim out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

help_of(top)
# The commands are the first words of the lines under "commands:".
string(REGEX MATCH "commands:\n(.*)" section "${top}")
string(REGEX REPLACE "\n\n.*" "" section "${CMAKE_MATCH_1}")
string(REGEX MATCHALL "(^|\n)  [a-z]+" words "${section}")
set(commands "")
foreach(w IN LISTS words)
  string(STRIP "${w}" w)
  list(APPEND commands ${w})
endforeach()
list(REMOVE_DUPLICATES commands)
if(NOT commands)
  message(FATAL_ERROR "no commands found in `kernelwright-cli --help`")
endif()

string(TIMESTAMP today "%Y-%m-%d" UTC) # SOURCE_DATE_EPOCH, when set, makes it reproducible
set(page ".TH KERNELWRIGHT-CLI 1 \"${today}\" \"kernelwright-cli ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nkernelwright-cli \\- agentic kernel search, headless\n")
string(APPEND page ".SH SYNOPSIS\n.B kernelwright-cli\n[\\fB\\-\\-db\\fR \\fIPATH\\fR] [\\fB\\-v\\fR|\\fB\\-q\\fR] \\fICOMMAND\\fR ...\n")
string(APPEND page ".SH DESCRIPTION\n")
roff_verbatim(text "${top}")
string(APPEND page "${text}")
string(APPEND page ".SH COMMANDS\n")
foreach(c IN LISTS commands)
  help_of(text ${c})
  roff_verbatim(text "${text}")
  string(APPEND page ".SS ${c}\n${text}")
endforeach()
string(APPEND page ".SH FILES\n.TP\n.I $XDG_DATA_HOME/kernelwright/workspace.db\nthe default workspace\n"
                   ".TP\n.I $XDG_CONFIG_HOME/kernelwright/llm.json\nlanguage models, prices and key sources\n"
                   ".TP\n.I /usr/share/kernelwright\nbundled problems, harness runtimes and the knowledge base\n")

get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
string(REGEX REPLACE "\\.gz$" "" plain "${OUT}")
file(WRITE "${plain}" "${page}")
# Debian wants man pages gzipped, without a name or time stamp in the header.
execute_process(COMMAND gzip -9nf "${plain}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed on ${plain}")
endif()
