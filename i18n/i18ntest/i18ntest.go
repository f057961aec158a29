// Package i18ntest tells, for the tests of the pages in a browser or over
// HTTP, whether a string a translated page shows is English left
// untranslated: text made only of names that stay the same in every
// language (DirectML's, the API's, the project's), numbers and formulas
// is not, and a few words are spelt alike in some languages.
package i18ntest

import (
	"regexp"
	"strings"

	"github.com/stridescope/stridescope/i18n"
)

// NotWords are strings the same in every language: DirectML and API
// names, code, the project's name, units and symbols. A text made only of
// these, numbers and punctuation is not English to translate.
var NotWords = regexp.MustCompile(`\b(stridescope|DirectML|DML_[A-Z0-9_]+|Sizes|Strides|TotalTensorSizeInBytes|GuaranteedBaseOffsetAlignment|DimensionCount|DMLCalcBufferTensorSize|InputWindowOffsets|InputWindowSizes|InputWindowStrides|OutputSizes|CopyStart|MaxCopiedElements|FLOAT(16|32|64)|U?INT(4|8|16|32|64)|nullptr|JSON|API|C\+\+|NumPy|ONNX|PyTorch|DxDispatch|ABCD-2345|QR|InputTensor|OutputTensor|PaddingMode|PaddingValue|StartPadding|EndPadding|CONSTANT|EDGE|REFLECTION|SYMMETRIC|WRAP|BlockSize|DEPTH_COLUMN_ROW|COLUMN_ROW_DEPTH|DCR|CRD|NCHW|NHWC|NCDHW|NDHWC|Repeats|RepeatsCount)\b`)

var word = regexp.MustCompile(`[A-Za-z]{2,}`)

// Translatable is the text a reader reads as English, or "" for text
// that is code, numbers or names.
func Translatable(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	rest := NotWords.ReplaceAllString(s, "")
	if !word.MatchString(rest) {
		return ""
	}
	return s
}

// SameIn says whether s may read the same in l: allowedSame's strings
// and sameLike's patterns (formulas, units spelt alike).
func SameIn(s string, l i18n.Locale) bool {
	if strings.Contains(" "+allowedSame[s]+" ", " "+string(l)+" ") {
		return true
	}
	for re, ls := range sameLike {
		if re.MatchString(s) && strings.Contains(" "+ls+" ", " "+string(l)+" ") {
			return true
		}
	}
	return false
}

var sameLike = map[*regexp.Regexp]string{
	regexp.MustCompile(`^= \d+ bits$`):                  "pt-BR fr", // bits in Portuguese and French too
	regexp.MustCompile(`^= \d+ bytes$`):                 "pt-BR",
	regexp.MustCompile(`^product\(sizes\) = [0-9 ×]+$`): "zh-TW pt-BR fr",
	// The slice picture's formula line, DML_SLICE1's names and braces.
	regexp.MustCompile(`^CopyStart = \{[0-9,]+\} · MaxCopiedElements = 1 \+ \(size − 1\) / \|stride\| = \{[0-9,]+\} · OutputSizes = \{[0-9,]+\}$`): "zh-TW pt-BR fr",
	// The depth-space pictures' index maps, the operator's pseudo-code.
	regexp.MustCompile(`^Output\[n, [^\]]+\] = Input\[n, [^\]]+\]$`): "zh-TW pt-BR fr",
}

// allowedSame are UI strings that are the same words in the locales
// listed, and formulas written in code.
var allowedSame = map[string]string{
	"site":                    "pt-BR fr",
	"Tensor":                  "pt-BR",
	"tensor":                  "pt-BR",
	"dimension":               "fr",
	"buffer":                  "pt-BR", // the word Brazilian teachers use (see /glossary)
	"byte":                    "pt-BR",
	"= 192 bits":              "pt-BR fr",
	"= 24 bytes":              "pt-BR",
	"= 32 bytes":              "pt-BR",
	"= 256 bits":              "pt-BR fr",
	"FLOAT32, 32 bits":        "pt-BR fr",
	"(erratum E3).":           "fr",
	"❚❚ Pause":                "fr",
	"dot(sizes − 1, strides)": "zh-TW pt-BR fr",
	"product(sizes) = 2 × 3":  "zh-TW pt-BR fr",
	"max(DMLCalcBufferTensorSize, TotalTensorSizeInBytes)": "zh-TW pt-BR fr",
	"MaxCopiedElements = 1 + (size − 1) / |stride|":        "zh-TW pt-BR fr",
	"1 + (size − 1) / |stride|":                            "zh-TW pt-BR fr",
	"DML_BUFFER_TENSOR_DESC: NCHW":                         "pt-BR",
	"DML_BUFFER_TENSOR_DESC: NHWC":                         "pt-BR",
	"Output":                                               "zh-TW pt-BR fr", // the name in the DirectML page's pseudo-code
	"ONNX Slice (opset 13)":                                "zh-TW pt-BR fr", // the ONNX operator and its version
	// The conversion's layouts, named as DirectML and the literature
	// name them, and DML_SCALE_BIAS's fields.
	"NCHW": "zh-TW pt-BR fr", "NHWC": "zh-TW pt-BR fr", "NCDHW": "zh-TW pt-BR fr", "NDHWC": "zh-TW pt-BR fr",
	"HW": "zh-TW pt-BR fr", "WH": "zh-TW pt-BR fr", "DHW": "zh-TW pt-BR fr", "WHD": "zh-TW pt-BR fr",
	"ScaleBias": "zh-TW pt-BR fr", "Scale": "zh-TW pt-BR fr", "Bias": "zh-TW pt-BR fr",
}

// rawKey is how a catalog key looks: dotted lower-case words.
var rawKey = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:\.[a-z0-9-]+)+\b`)

// RawKeys lists the catalog keys s shows as they are: a page's catalog
// miss (i18n's lookup writes the key when no catalog has it).
func RawKeys(s string) []string {
	var out []string
	for _, m := range rawKey.FindAllString(s, -1) {
		if keys[i18n.Key(m)] {
			out = append(out, m)
		}
	}
	return out
}

var keys = func() map[i18n.Key]bool {
	m := map[i18n.Key]bool{}
	for _, k := range i18n.Keys() {
		m[k] = true
	}
	return m
}()
