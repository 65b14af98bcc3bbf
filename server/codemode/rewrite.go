package codemode

import (
	"fmt"
	"reflect"

	"go.starlark.net/syntax"
)

// Starlark bounds steps, not memory, and some of its operations build a
// value far larger than their operands in one step: [0] * (1 << 29) is 8
// GiB, s.replace("", t) is len(s) × len(t). Before a script is compiled,
// each of those operations is rewritten into a call of a guard (see
// guards.go) that checks the size of the result before making it. The
// guards' names begin with $, which no identifier a script writes can.
const (
	guardMul     = "$mul"
	guardReplace = "$replace"
	guardJoin    = "$join"
)

// guardedMethods are the string methods whose result can outgrow their
// operands many times over, by the guard of each.
var guardedMethods = map[string]string{"replace": guardReplace, "join": guardJoin}

var exprType = reflect.TypeFor[syntax.Expr]()

// guardFile rewrites f's risky operations into guard calls, in place.
func guardFile(f *syntax.File) error {
	var err error
	for _, st := range f.Stmts {
		if e := rewriteNode(reflect.ValueOf(st)); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// rewriteNode rewrites the children of the node v points to, then v's own
// risky forms that live in a parent's field are replaced by the parent
// (see guardExpr).
func rewriteNode(v reflect.Value) error {
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	if _, ok := v.Interface().(syntax.Node); !ok {
		return nil
	}
	if a, ok := v.Interface().(*syntax.AssignStmt); ok && a.Op == syntax.STAR_EQ {
		id, isName := a.LHS.(*syntax.Ident)
		if !isName {
			start, _ := a.Span()
			return fmt.Errorf("%s: *= works on a plain name here: write x = x * n for anything else", start)
		}
		a.Op = syntax.EQ
		a.RHS = &syntax.BinaryExpr{X: &syntax.Ident{NamePos: id.NamePos, Name: id.Name}, OpPos: a.OpPos, Op: syntax.STAR, Y: a.RHS}
	}
	el := v.Elem()
	var err error
	keep := func(e error) {
		if e != nil && err == nil {
			err = e
		}
	}
	for i := range el.NumField() {
		f := el.Field(i)
		if !f.CanSet() {
			continue
		}
		switch f.Kind() {
		case reflect.Interface, reflect.Pointer:
			keep(rewriteField(f))
		case reflect.Slice:
			for j := range f.Len() {
				keep(rewriteField(f.Index(j)))
			}
		}
	}
	return err
}

// rewriteField rewrites the node in f, then puts its guard in its place
// when f holds an expression.
func rewriteField(f reflect.Value) error {
	if f.IsNil() {
		return nil
	}
	child := f
	if f.Kind() == reflect.Interface {
		child = f.Elem()
	}
	if err := rewriteNode(child); err != nil {
		return err
	}
	if f.Type() != exprType {
		return nil
	}
	if g := guardExpr(child.Interface().(syntax.Expr)); g != nil {
		f.Set(reflect.ValueOf(g))
	}
	return nil
}

// guardExpr is the guard call that stands for e, or nil when e needs none.
func guardExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		if e.Op == syntax.STAR {
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: e.OpPos, Name: guardMul}, Lparen: e.OpPos, Args: []syntax.Expr{e.X, e.Y}, Rparen: e.OpPos}
		}
	case *syntax.CallExpr:
		dot, ok := e.Fn.(*syntax.DotExpr)
		if !ok {
			return nil
		}
		if g, ok := guardedMethods[dot.Name.Name]; ok {
			args := append([]syntax.Expr{dot.X}, e.Args...)
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: dot.NamePos, Name: g}, Lparen: e.Lparen, Args: args, Rparen: e.Rparen}
		}
	}
	return nil
}
