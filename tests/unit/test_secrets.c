/*
 * test_secrets.c: unit tests for src/secrets.{h,c}: passwords found by their place (password
 * options, "password=" in a connection string, quoted or not, a URI's user part and query),
 * values noted from the options found again in free text, short values left alone in free
 * text, and text without secrets unchanged.
 */
#include "secrets.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static char buf[512];

static const char *masked(const char *text)
{
  return secrets_mask(text, buf, sizeof(buf));
}

int main(void)
{
  ok(secret_option_name("mysql-password") && secret_option_name("pgsql_password") &&
     secret_option_name("my-PASSWD"), "options named after a password are secret");
  ok(!secret_option_name("pgsql-db") && !secret_option_name("mysql-user"),
     "other options are not");

  is_str(masked("threads=8, nothing to hide"), "threads=8, nothing to hide",
         "text without a password is unchanged");
  is_str(masked("dbname=sb password=s3cr3t sslmode=require"),
         "dbname=sb password=***** sslmode=require", "conninfo: an unquoted password");
  is_str(masked("dbname=sb password = 'top secret\\' x' port=5"),
         "dbname=sb password = ***** port=5",
         "conninfo: a quoted password with a blank and an escaped quote, spaces around =");
  is_str(masked("host=h sslpassword=keypw"), "host=h sslpassword=*****",
         "conninfo: sslpassword too");
  is_str(masked("postgresql://bob:pw@db1,db2:5432/sb?sslmode=require"),
         "postgresql://bob:*****@db1,db2:5432/sb?sslmode=require", "URI: the user's password");
  is_str(masked("postgresql://bob@db/sb?password=pw&sslmode=require"),
         "postgresql://bob@db/sb?password=*****&sslmode=require",
         "URI: a password in the query ends at '&'");
  is_str(masked("dbname=sb password=a&b"), "dbname=sb password=*****",
         "conninfo: '&' is part of the password");
  is_str(masked("in URI: \"postgresql://u:p/w@[::1/db\""), "in URI: \"postgresql://u:*****@[::1/db\"",
         "an echoed URI in a message, a '/' in the password");
  is_str(masked("postgresql://db/sb"), "postgresql://db/sb", "a URI without a user is unchanged");
  is_str(masked("user 'sbtest' (using password: YES)"), "user 'sbtest' (using password: YES)",
         "MySQL's 'using password: YES' is not a value");

  secrets_forget();
  secrets_note_option("mysql-password", "hunter22");
  secrets_note_option("pgsql-db", "dbname=sb password='two words'");
  secrets_note_option("pgsql-host", "postgresql://u:p%41ss@h/db");
  secrets_note_option("mysql-db", "dbname=x password=ab");
  is_str(masked("Access denied (hunter22)"), "Access denied (*****)",
         "a password option's value is found in free text");
  is_str(masked("token \"two words\" rejected"), "token \"*****\" rejected",
         "a quoted conninfo password is found unquoted");
  is_str(masked("bad token: pAss"), "bad token: *****", "a URI password is found decoded");
  is_str(masked("ab cd"), "ab cd", "a value shorter than 4 characters is not searched for");
  secrets_forget();
  is_str(masked("Access denied (hunter22)"), "Access denied (hunter22)", "forgotten");

  char *v = secrets_option_value_dup("pgsql-password", "x");
  is_str(v, SECRET_MASK, "a password option's value is the mask, however short");
  free(v);
  v = secrets_option_value_dup("pgsql-password", "");
  is_str(v, "", "an empty password option stays empty: nothing is hidden");
  free(v);
  v = secrets_argument_dup("--pgsql-db=dbname=sb password=pw");
  is_str(v, "--pgsql-db=dbname=sb password=*****", "an argument: the connection string masked");
  free(v);
  v = secrets_argument_dup("--mysql-password=pw");
  is_str(v, "--mysql-password=*****", "an argument: a password option");
  free(v);
  v = secrets_argument_dup("oltp_read_only");
  is_str(v, "oltp_read_only", "other arguments are kept");
  free(v);

  char small[12];
  is_str(secrets_mask("password=abcdefghijkl tail", small, sizeof(small)), "password=**",
         "the output is cut to its buffer");
  return tap_done();
}
