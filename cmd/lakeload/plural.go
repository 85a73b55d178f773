package main

import "fmt"

// count renders n with noun, plural unless n is 1: "1 window", "3 windows", "0 rows".
func count[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
