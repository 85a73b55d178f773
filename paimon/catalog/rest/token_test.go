package rest

import (
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/paimon/catalog"
)

// A data token is read under Java's key names (fs.s3a.*) and pypaimon's (fs.s3.accessKeyId, …), with
// Java's expiresAtMillis or the spec's expiresAt, and is replaced a safe margin before it expires; a
// token without S3 keys is refused naming its keys, never their values.
func TestDataTokenCredentials(t *testing.T) {
	id := catalog.Identifier{Database: "db", Table: "t"}
	now := time.UnixMilli(1_700_000_000_000)
	java := &dataToken{Token: map[string]string{"fs.s3a.access-key": "AK", "fs.s3a.secret-key": "SK", "fs.s3a.session-token": "ST"},
		ExpiresMs: now.Add(3 * time.Hour).UnixMilli()}
	cr, err := java.credentials(id, now)
	if err != nil || cr.AccessKeyID != "AK" || cr.SecretAccessKey != "SK" || cr.SessionToken != "ST" || !cr.CanExpire ||
		!cr.Expires.Equal(now.Add(2*time.Hour)) {
		t.Errorf("Java keys: %+v, %v; want AK/SK/ST replaced 1 h before expiry", cr, err)
	}
	py := &dataToken{Token: map[string]string{"fs.s3.accessKeyId": "AK2", "fs.s3.accessKeySecret": "SK2", "fs.s3.securityToken": "ST2"},
		ExpiresAt: now.Add(10 * time.Minute).UnixMilli()}
	cr, err = py.credentials(id, now)
	if err != nil || cr.AccessKeyID != "AK2" || cr.SessionToken != "ST2" || !cr.Expires.Equal(now.Add(5*time.Minute)) {
		t.Errorf("pypaimon keys: %+v, %v; want AK2/ST2 replaced halfway through a short lifetime", cr, err)
	}
	if cr, err := (&dataToken{Token: map[string]string{"s3.access-key": "a", "s3.secret-key": "b"}}).credentials(id, now); err != nil || cr.CanExpire {
		t.Errorf("token without expiry: %+v, %v; want credentials that do not expire", cr, err)
	}
	_, err = (&dataToken{Token: map[string]string{"fs.oss.accessKeyId": "SECRET-VALUE"}}).credentials(id, now)
	if err == nil || !strings.Contains(err.Error(), "fs.oss.accessKeyId") || strings.Contains(err.Error(), "SECRET-VALUE") {
		t.Errorf("token without S3 keys: %v; want an error naming its keys, not their values", err)
	}
}
