R
R
R
