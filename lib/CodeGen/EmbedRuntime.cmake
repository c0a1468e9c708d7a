# Writes OUT: one {"file name", R"(text)"} entry per header in FILES, so
# that --emit can write the runtime headers wherever it is run.
string(REPLACE "|" ";" FILES "${FILES}")
set(Body "")
foreach(F ${FILES})
  get_filename_component(Name "${F}" NAME)
  file(READ "${F}" Text)
  string(APPEND Body "{\"${Name}\", R\"ROOFLINERT(${Text})ROOFLINERT\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "${Body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
