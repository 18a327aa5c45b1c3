# embed.cmake - writes OUT, a C file defining NAME as the bytes of IN plus a
# NUL: data the library carries (the CPU defaults machine file), kept as a
# data file in the source tree. Run by a custom command at build time.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}.tmp"
     "/* generated from ${IN}: do not edit */\n"
     "const unsigned char ${NAME}[] = { ${bytes} 0x00 };\n"
     "const unsigned long ${NAME}_len = sizeof(${NAME}) - 1;\n")
file(RENAME "${OUT}.tmp" "${OUT}")
