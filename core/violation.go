package core

import (
	"fmt"
	"strings"
)

// Violation is one broken rule: the field it concerns (a JSON path such as
// "sizes[1]") and a message that states the rule.
type Violation struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ValidationError collects every violation found in one description, so a
// user sees all of them at once.
type ValidationError struct {
	Violations []Violation
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.Field + ": " + v.Message
	}
	return "invalid description: " + strings.Join(parts, "; ")
}

// violations accumulates Violations while validating.
type violations []Violation

func (vs *violations) add(field, format string, args ...any) {
	*vs = append(*vs, Violation{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (vs violations) err() error {
	if len(vs) == 0 {
		return nil
	}
	return &ValidationError{Violations: vs}
}

func indexed(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }
