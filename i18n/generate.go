package i18n

// The English catalog's "messages" section is written from the sources'
// call sites (i18n/msggen): edit a message's English where it is written,
// then run `go generate ./i18n` (or `make generate`).
//go:generate go run ../cmd/genmessages -root ..
