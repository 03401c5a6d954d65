/**
 * Security material and credentials, apart from any server or client that uses them: PEM
 * certificates and keys read into key stores (and read again when they are renewed), password
 * hashes (bcrypt, PBKDF2), the users and tokens files of the HTTP API, and who a caller is with the
 * series prefixes it may see. The http package serves with them; the sink and the registry client
 * take their trust and client certificates from here too.
 */
package io.bucketer.security;
