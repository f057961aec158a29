package views

// ImportError is one reason an import was refused, at its field.
type ImportError struct {
	Field, Message string
}
