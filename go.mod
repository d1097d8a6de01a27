module matombo

go 1.26.8
