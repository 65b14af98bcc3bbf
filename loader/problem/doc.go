// Package problem says what is wrong with what a source gave toolsearch: a
// [Problem] names the file, line and field, and how bad it is (a
// [Severity]: an error refuses the thing, a warning or a hint loads it and
// tells its author). The catalog keeps a source's [Problems]; a skill keeps
// its own.
package problem
