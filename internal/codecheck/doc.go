// Package codecheck holds tests over the module's own sources: checks of
// rules of the codebase that the compiler does not make, such as packages
// talking through typed values rather than each other's English messages.
package codecheck
