# twinsched_stock_folder(SOURCE KIND SOURCE_FOLDER): compiles into SOURCE (a file of the calling
# folder's CMakeLists.txt) what scenarios/stock_folder.hpp needs to find the stock KIND files
# (scenarios, machines): this build folder (a command run inside it reads SOURCE_FOLDER), and the
# way from an installed <prefix>/bin to <prefix>/share/twinsched, where install.cmake puts them.
# Defines TWINSCHED_BUILD_TREE, TWINSCHED_SHARE_FROM_BIN and TWINSCHED_<KIND>_DIR.
include(GNUInstallDirs)
function(twinsched_stock_folder source kind source_folder)
  file(REAL_PATH "${PROJECT_BINARY_DIR}" build_tree)
  file(REAL_PATH "${source_folder}" folder)
  file(RELATIVE_PATH share_from_bin "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_DATADIR}/twinsched")
  string(TOUPPER "${kind}" upper)
  set_property(SOURCE ${source} APPEND PROPERTY COMPILE_DEFINITIONS
    TWINSCHED_BUILD_TREE="${build_tree}"
    TWINSCHED_SHARE_FROM_BIN="${share_from_bin}"
    TWINSCHED_${upper}_DIR="${folder}")
endfunction()
