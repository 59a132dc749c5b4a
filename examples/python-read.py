import sdtrace
