module vplatform/compat

go 1.21

require github.com/verge-io/govergeos v0.1.9
