33 T
x T
