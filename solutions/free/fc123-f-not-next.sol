6 T
7 F
