6 T
3 F
