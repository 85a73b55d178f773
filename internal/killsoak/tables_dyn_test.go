package killsoak

// dynUsersTable is usersTable as a dynamic-bucket table (bucket = -1, 3,000 keys per bucket): every
// window's writer restores the HASH index, so a kill at any point must leave each key in one
// bucket and the table exact.
func dynUsersTable() tableSpec {
	ts := usersTable()
	ts.name = "users_dyn"
	ts.options = []string{"bucket=-1", "dynamic-bucket.target-row-num=3000"}
	return ts
}
