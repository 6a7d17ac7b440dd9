6 T
3 T
