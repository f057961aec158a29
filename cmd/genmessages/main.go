// Command genmessages writes the English of every violation message into
// the English catalog (i18n/catalog/en.json, its "messages" section) from
// the call sites that write it. `go generate ./i18n` runs it from the
// i18n directory; -root names the module's root.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stridescope/stridescope/i18n/msggen"
)

func main() {
	root := flag.String("root", "..", "the module's root")
	flag.Parse()
	changed, err := msggen.Generate(*root, filepath.Join(*root, "i18n", "catalog", "en.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if changed {
		fmt.Println("genmessages: i18n/catalog/en.json updated")
	}
}
