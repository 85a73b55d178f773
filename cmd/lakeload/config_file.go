package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// configEnv names the config file when --config is not given.
const configEnv = "LAKELOAD_CONFIG"

// configFlag is the root's persistent flag naming the config file.
const configFlag = "config"

// registerConfigFlag adds --config to c (the root), inherited by every command.
func registerConfigFlag(c *cobra.Command) {
	c.PersistentFlags().String(configFlag, "", "TOML file setting flags of any command: top-level keys are flag names, "+
		"a [load], [table.create], … table applies to that command and its subcommands; the command line and the environment win (env "+configEnv+")")
}

// applyConfigFile sets every flag of c that neither the command line nor an environment default
// set, from the config file named by --config or $LAKELOAD_CONFIG (none: nothing to do). It works
// over cobra's flag sets, so every flag of every command can be set without code here knowing it:
//   - top-level keys apply to every command that has a flag of that name;
//   - a table [cmd] or [cmd.sub] (also written ["cmd sub"]) applies to that command and its
//     subcommands, and wins over the keys of the levels above it;
//   - every key of the file must be a flag (of the table's command or one of its subcommands; of
//     some command for top-level keys) and every table a command, checked whichever command runs, so a typo is
//     reported at once, with the file, line, key and a "did you mean".
func applyConfigFile(c *cobra.Command) error {
	path, source := configPath(c)
	if path == "" || skipsConfig(c) {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", source, err)}
	}
	cf := &configFile{path: path, lines: strings.Split(string(data), "\n")}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return usageError{fmt.Errorf("config %s: line %d: %s", path, pe.Position.Line, pe.Message)}
		}
		return usageError{fmt.Errorf("config %s: %w", path, err)}
	}
	tables, err := cf.flatten(c.Root(), raw)
	if err != nil {
		return usageError{err}
	}
	// Apply the most specific setting: [a.b] over [a] over top-level keys.
	cmdPath := commandPath(c)
	for i := len(cmdPath); i >= 0; i-- {
		table := strings.Join(cmdPath[:i], " ")
		layer := tables[table]
		for _, key := range slices.Sorted(maps.Keys(layer)) {
			f := c.Flags().Lookup(key)
			if f == nil || f.Changed {
				continue // a top-level key for other commands, or set by a flag, env or a more specific table
			}
			if err := cf.set(c, f, table, key, layer[key]); err != nil {
				return usageError{err}
			}
		}
	}
	return nil
}

// configPath is the config file to read and how the user named it (for messages).
func configPath(c *cobra.Command) (path, source string) {
	if f := c.Flags().Lookup(configFlag); f != nil && f.Changed {
		return f.Value.String(), "--config " + f.Value.String()
	}
	if v := os.Getenv(configEnv); v != "" {
		return v, "$" + configEnv + " (" + v + ")"
	}
	return "", ""
}

// skipsConfig: help, shell completion and command groups (which only show their subcommands) never
// read the config file: a broken file must not hide help.
func skipsConfig(c *cobra.Command) bool {
	if c.HasSubCommands() {
		return true
	}
	for p := c; p != nil; p = p.Parent() {
		switch p.Name() {
		case "help", "completion", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
			return true
		}
	}
	return false
}

// commandPath is c's names below the root ("table", "create").
func commandPath(c *cobra.Command) []string {
	var out []string
	for p := c; p.HasParent(); p = p.Parent() {
		out = append([]string{p.Name()}, out...)
	}
	return out
}

// topLevel is m without its tables (the flag settings at this level).
func topLevel(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if _, table := v.(map[string]any); !table {
			out[k] = v
		}
	}
	return out
}

type configFile struct {
	path  string
	lines []string
}

// flatten checks the file against the command tree and returns its flag settings by command path
// ("" = top level, "table create" for [table.create] or ["table create"]).
func (cf *configFile) flatten(root *cobra.Command, raw map[string]any) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	var walk func(c *cobra.Command, path []string, m map[string]any) error
	walk = func(c *cobra.Command, path []string, m map[string]any) error {
		table := strings.Join(path, " ")
		for _, key := range slices.Sorted(maps.Keys(m)) {
			v := m[key]
			if sub, ok := v.(map[string]any); ok {
				cmd, subPath := c, slices.Clone(path)
				for _, name := range strings.Fields(key) {
					next := findSub(cmd, name)
					if next == nil {
						full := strings.Join(append(subPath, name), " ")
						return cf.unknownTable(table, key, full, name, cmd)
					}
					cmd, subPath = next, append(subPath, name)
				}
				if err := walk(cmd, subPath, sub); err != nil {
					return err
				}
				continue
			}
			if key == configFlag || key == "help" || key == "version" {
				return fmt.Errorf("config %s: %skey %q cannot be set in a config file", cf.path, cf.where(table, key), key)
			}
			if !anyHasFlag(c, key) {
				why := "no command has a flag --" + key
				if len(path) > 0 {
					why = fmt.Sprintf("not a flag of '%s'", c.CommandPath())
					if c.HasSubCommands() {
						why = fmt.Sprintf("not a flag of '%s' or its subcommands", c.CommandPath())
					}
				}
				return cf.unknownKey(table, key, allFlagNames(c), why)
			}
			if len(path) > 0 { // top-level keys are checked by the command they apply to
				if err := cf.checkType(c, table, key, v); err != nil {
					return err
				}
			}
			if out[table] == nil {
				out[table] = map[string]any{}
			}
			out[table][key] = v
		}
		return nil
	}
	return out, walk(root, nil, raw)
}

func (cf *configFile) unknownKey(table, key string, candidates []string, why string) error {
	hint := ""
	if s := closest(key, candidates); s != "" {
		hint = fmt.Sprintf("; did you mean %q?", s)
	}
	return fmt.Errorf("config %s: %sunknown key %q (%s)%s", cf.path, cf.where(table, key), key, why, hint)
}

// unknownTable reports table full (written as key inside table) whose command name is not a
// subcommand of parent.
func (cf *configFile) unknownTable(table, key, full, name string, parent *cobra.Command) error {
	at := ""
	if n := cf.headerLine(full); n > 0 {
		at = fmt.Sprintf("line %d: ", n)
	}
	hint := ""
	if s := closest(name, subNames(parent)); s != "" {
		hint = fmt.Sprintf("; did you mean %q?", s)
	}
	return fmt.Errorf("config %s: %sunknown table [%s] (%q is not a command of '%s')%s", cf.path, at,
		strings.ReplaceAll(full, " ", "."), name, parent.CommandPath(), hint)
}

// where is "line N: [table] " for a key of table ("" = top level), as far as the file shows it.
func (cf *configFile) where(table, key string) string {
	s := ""
	if n := cf.keyLine(table, key); n > 0 {
		s = fmt.Sprintf("line %d: ", n)
	}
	if table != "" {
		s += "[" + strings.ReplaceAll(table, " ", ".") + "] "
	}
	return s
}

// header is the command path a table header line names ("[table.create]", `["table create"]` →
// "table create"); ok is false for other lines.
func header(line string) (string, bool) {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "[") || strings.HasPrefix(l, "[[") {
		return "", false
	}
	l = strings.TrimPrefix(l, "[")
	if i := strings.Index(l, "]"); i >= 0 {
		l = l[:i]
	}
	var parts []string
	for _, p := range strings.Split(l, ".") {
		parts = append(parts, strings.Fields(strings.Trim(strings.TrimSpace(p), `"'`))...)
	}
	return strings.Join(parts, " "), true
}

// headerLine is the line (1-based, 0 = not found) of the header of table path.
func (cf *configFile) headerLine(path string) int {
	for i, l := range cf.lines {
		if h, ok := header(l); ok && (h == path || strings.HasPrefix(h, path+" ")) {
			return i + 1
		}
	}
	return 0
}

// keyLine is the line (1-based, 0 = not found) of `key = …` in table path. Best effort, for messages.
func (cf *configFile) keyLine(path, key string) int {
	cur := ""
	for i, l := range cf.lines {
		if h, ok := header(l); ok {
			cur = h
			continue
		}
		k, _, ok := strings.Cut(strings.TrimSpace(l), "=")
		if ok && cur == path && strings.Trim(strings.TrimSpace(k), `"'`) == key {
			return i + 1
		}
	}
	return 0
}

// set gives flag f of command c the config value v.
func (cf *configFile) set(c *cobra.Command, f *pflag.Flag, table, key string, v any) error {
	vals, err := cf.convert(c, f, table, key, v)
	if err != nil {
		return err
	}
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		if err := sv.Replace(vals); err != nil {
			return fmt.Errorf("config %s: %skey %q: %w", cf.path, cf.where(table, key), key, err)
		}
		f.Changed = true
		return nil
	}
	for _, s := range vals {
		if err := c.Flags().Set(f.Name, s); err != nil {
			return fmt.Errorf("config %s: %skey %q: %w", cf.path, cf.where(table, key), key, err)
		}
	}
	return nil
}

// convert checks the TOML value v against the type of flag f (of command c) and returns it as the
// flag's text values (one per element for slice flags).
func (cf *configFile) convert(c *cobra.Command, f *pflag.Flag, table, key string, v any) ([]string, error) {
	typ := f.Value.Type()
	bad := func(want string) error {
		return fmt.Errorf("config %s: %skey %q: expected %s (flag --%s of '%s' takes %s), got %s", cf.path, cf.where(table, key),
			key, want, f.Name, c.CommandPath(), typ, tomlKind(v))
	}
	isSlice := strings.HasSuffix(typ, "Slice") || strings.HasSuffix(typ, "Array")
	isInt := strings.HasPrefix(typ, "int") || strings.HasPrefix(typ, "uint")
	switch {
	case typ == "bool":
		b, ok := v.(bool)
		if !ok {
			return nil, bad("true or false")
		}
		return []string{strconv.FormatBool(b)}, nil
	case isInt && !isSlice:
		n, ok := v.(int64)
		if !ok {
			return nil, bad("an integer")
		}
		return []string{strconv.FormatInt(n, 10)}, nil
	case strings.HasPrefix(typ, "float") && !isSlice:
		switch x := v.(type) {
		case float64:
			return []string{strconv.FormatFloat(x, 'g', -1, 64)}, nil
		case int64:
			return []string{strconv.FormatInt(x, 10)}, nil
		}
		return nil, bad("a number")
	case isSlice:
		want := "an array of strings"
		if isInt {
			want = "an array of integers"
		}
		items, ok := v.([]any)
		if !ok {
			items = []any{v}
		}
		vals := []string{}
		for _, it := range items {
			switch x := it.(type) {
			case string:
				if isInt {
					return nil, bad(want)
				}
				vals = append(vals, x)
			case int64:
				if !isInt {
					return nil, bad(want)
				}
				vals = append(vals, strconv.FormatInt(x, 10))
			default:
				return nil, bad(want)
			}
		}
		return vals, nil
	}
	// string, duration and any other flag type parse from text
	str, ok := v.(string)
	if !ok {
		if typ == "duration" {
			return nil, bad(`a duration string such as "30s"`)
		}
		return nil, bad("a string")
	}
	return []string{str}, nil
}

// checkType checks v against flag key of every command of c's tree that has it.
func (cf *configFile) checkType(c *cobra.Command, table, key string, v any) error {
	if f := lookupFlag(c, key); f != nil {
		if _, err := cf.convert(c, f, table, key, v); err != nil {
			return err
		}
	}
	for _, s := range c.Commands() {
		if err := cf.checkType(s, table, key, v); err != nil {
			return err
		}
	}
	return nil
}

func tomlKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

func findSub(c *cobra.Command, name string) *cobra.Command {
	for _, s := range c.Commands() {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

func subNames(c *cobra.Command) []string {
	var out []string
	for _, s := range c.Commands() {
		out = append(out, s.Name())
	}
	return out
}

// lookupFlag finds a flag of c, its own or inherited from a parent's persistent flags.
func lookupFlag(c *cobra.Command, name string) *pflag.Flag {
	if f := c.Flags().Lookup(name); f != nil {
		return f
	}
	for p := c; p != nil; p = p.Parent() {
		if f := p.PersistentFlags().Lookup(name); f != nil {
			return f
		}
	}
	return nil
}

func commandFlagNames(c *cobra.Command) []string {
	seen := map[string]bool{}
	add := func(f *pflag.Flag) { seen[f.Name] = true }
	c.Flags().VisitAll(add)
	for p := c; p != nil; p = p.Parent() {
		p.PersistentFlags().VisitAll(add)
	}
	return slices.Sorted(maps.Keys(seen))
}

func anyHasFlag(c *cobra.Command, name string) bool {
	if lookupFlag(c, name) != nil {
		return true
	}
	for _, s := range c.Commands() {
		if anyHasFlag(s, name) {
			return true
		}
	}
	return false
}

func allFlagNames(c *cobra.Command) []string {
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, n := range commandFlagNames(c) {
			seen[n] = true
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(c)
	return slices.Sorted(maps.Keys(seen))
}

// closest is the candidate nearest to s by edit distance, if near enough to be a typo ("" otherwise).
func closest(s string, candidates []string) string {
	best, bestD := "", max(2, len(s)/3)+1
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
