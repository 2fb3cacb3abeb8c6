module sandlock

go 1.19
