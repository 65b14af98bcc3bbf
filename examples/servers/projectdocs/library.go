package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxDocBytes bounds how much of one document is read into memory for search
// and summaries; larger files are still readable in pages via project_doc_read.
const maxDocBytes = 1 << 20

// library is a read-only view of a folder of projects. Every direct,
// non-hidden subfolder of root is a project, and a project's docs are its
// *.md files, found recursively while skipping hidden folders and
// node_modules.
//
// Nothing is cached: each call rescans the disk, so edits show up immediately
// and the example stays simple. That is fine for folders of a few hundred docs.
type library struct {
	root string // absolute and symlink-free, so containment checks compare like with like
}

// openLibrary checks that root is a directory and returns a library for it.
func openLibrary(root string) (*library, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("projects root: %w", err)
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return nil, fmt.Errorf("projects root: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("projects root %s is not a directory", root)
	}
	return &library{root: resolved}, nil
}

// skipDir reports whether a folder is left out of projects and doc listings.
func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules"
}

func isMarkdown(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".md")
}

// projects returns the sorted project names.
func (l *library) projects() ([]string, error) {
	entries, err := os.ReadDir(l.root)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		// Only real directories: a symlinked project could point anywhere.
		if e.IsDir() && !skipDir(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names, nil // os.ReadDir sorts by name
}

// projectDir returns the directory of the named project, or an error naming
// the available projects so a model can correct itself.
func (l *library) projectDir(name string) (string, error) {
	if name == "" {
		return "", errors.New("project is required; call project_list to see the available projects")
	}
	if !filepath.IsLocal(name) || strings.ContainsAny(name, `/\`) || skipDir(name) {
		return "", fmt.Errorf("invalid project name %q: use a name from project_list", name)
	}
	dir := filepath.Join(l.root, name)
	if info, err := os.Lstat(dir); err == nil && info.IsDir() {
		return dir, nil
	}
	names, _ := l.projects()
	return "", fmt.Errorf("unknown project %q; available projects: %s", name, strings.Join(names, ", "))
}

// docs returns the slash-separated paths of a project's docs, relative to
// the project directory, sorted.
func (l *library) docs(project string) ([]string, error) {
	dir, err := l.projectDir(project)
	if err != nil {
		return nil, err
	}
	var paths []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped, not fatal
		}
		if d.IsDir() {
			if path != dir && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		// WalkDir does not follow symlinks; listing only regular files keeps
		// links (which may point outside the root) out of search results.
		if d.Type().IsRegular() && isMarkdown(d.Name()) {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(paths)
	return paths, err
}

// isDocPath reports whether rel, a clean project-relative path, names
// something docs would list: a .md file outside hidden folders and
// node_modules. Reads are held to the same rule so that nothing a listing
// hides (a .git folder, say) can be read by guessing its path.
func isDocPath(rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts[:len(parts)-1] {
		if skipDir(p) {
			return false
		}
	}
	return isMarkdown(parts[len(parts)-1])
}

// resolveDoc turns a user-supplied doc path into a safe, project-relative
// path. It refuses absolute paths, paths with "..", paths that are not docs,
// and symlinks whose target leaves the project.
func (l *library) resolveDoc(project, path string) (dir, rel string, err error) {
	dir, err = l.projectDir(project)
	if err != nil {
		return "", "", err
	}
	if path == "" {
		return "", "", errors.New("path is required; use a path from project_docs_search or project_list")
	}
	native := filepath.FromSlash(path)
	if filepath.IsAbs(native) || strings.HasPrefix(path, "/") || strings.HasPrefix(path, `\`) || filepath.VolumeName(native) != "" {
		return "", "", fmt.Errorf("path %q must be relative to the project folder, not absolute", path)
	}
	// Refuse ".." outright, even where it would stay inside the project: it is
	// never needed to name a listed doc, and the error is clearer.
	if slices.Contains(strings.Split(filepath.ToSlash(native), "/"), "..") || !filepath.IsLocal(native) {
		return "", "", fmt.Errorf("path %q must not contain \"..\": paths are relative to the project folder", path)
	}
	clean := filepath.Clean(native)
	if !isDocPath(clean) {
		return "", "", fmt.Errorf("path %q is not a Markdown doc of project %q", path, project)
	}

	// Resolve symlinks and check that the target is still inside the project
	// and is itself a doc, so a link cannot smuggle out /etc/passwd or .env.
	resolved, err := filepath.EvalSymlinks(filepath.Join(dir, clean))
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("no doc %q in project %q", path, project)
	}
	if err != nil {
		return "", "", fmt.Errorf("cannot resolve %q: %w", path, err)
	}
	realRel, err := filepath.Rel(dir, resolved)
	if err != nil || !filepath.IsLocal(realRel) {
		return "", "", fmt.Errorf("path %q resolves outside the project folder", path)
	}
	if !isDocPath(realRel) {
		return "", "", fmt.Errorf("path %q resolves to something that is not a Markdown doc", path)
	}
	return dir, realRel, nil
}

// readDoc reads up to limit bytes of a doc starting at offset and returns
// them with the doc's total size.
func (l *library) readDoc(project, path string, offset, limit int64) (data []byte, size int64, err error) {
	dir, rel, err := l.resolveDoc(project, path)
	if err != nil {
		return nil, 0, err
	}
	// os.Root refuses any path that escapes dir, closing the window between
	// the symlink check above and the open (a link swapped in meanwhile).
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("path %q is not a regular file", path)
	}
	size = info.Size()
	if offset > size {
		return nil, size, fmt.Errorf("offset %d is past the end of %q (%d bytes)", offset, path, size)
	}
	data, err = io.ReadAll(io.NewSectionReader(f, offset, limit))
	return data, size, err
}

// readWhole reads a listed doc for indexing, capped at maxDocBytes.
func (l *library) readWhole(project, path string) (string, error) {
	data, _, err := l.readDoc(project, path, 0, maxDocBytes)
	return string(data), err
}
