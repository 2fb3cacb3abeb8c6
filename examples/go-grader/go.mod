module gograder

go 1.19

require sandlock v0.0.0

replace sandlock => ../../bindings/go
