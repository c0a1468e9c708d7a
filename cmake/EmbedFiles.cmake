# EmbedFiles.cmake - files compiled into the tool, as one
# {"name", R"DELIMITER(text)DELIMITER"} entry per file: the runtime headers
# --emit writes wherever it is run (lib/CodeGen), the machine files
# --machine=NAME finds wherever the binary is (lib/Machine).
#
# Included, it defines
#
#   roofline_embed_files(<out.inc> FILES <file>... NAME_PART NAME|NAME_WE
#                        DELIMITER <word> COMMENT <text>)
#
# the custom command that writes <out.inc>; run with `cmake -P` (as that
# command does) it writes OUT from FILES ('|'-separated), NAME_PART and
# DELIMITER.
if(CMAKE_SCRIPT_MODE_FILE)
  string(REPLACE "|" ";" FILES "${FILES}")
  set(Body "")
  foreach(F ${FILES})
    get_filename_component(Name "${F}" ${NAME_PART})
    file(READ "${F}" Text)
    string(APPEND Body
           "{\"${Name}\", R\"${DELIMITER}(${Text})${DELIMITER}\"},\n")
  endforeach()
  file(WRITE "${OUT}.tmp" "${Body}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp"
                          "${OUT}")
  return()
endif()

set(ROOFLINE_EMBED_FILES_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

function(roofline_embed_files Out)
  cmake_parse_arguments(ARG "" "NAME_PART;DELIMITER;COMMENT" "FILES" ${ARGN})
  string(REPLACE ";" "|" FilesArg "${ARG_FILES}")
  add_custom_command(
    OUTPUT "${Out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${Out} "-DFILES=${FilesArg}"
            -DNAME_PART=${ARG_NAME_PART} -DDELIMITER=${ARG_DELIMITER}
            -P "${ROOFLINE_EMBED_FILES_SCRIPT}"
    DEPENDS ${ARG_FILES} "${ROOFLINE_EMBED_FILES_SCRIPT}"
    COMMENT "${ARG_COMMENT}"
    VERBATIM)
endfunction()
