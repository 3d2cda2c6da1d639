/* A shared object named "libssl.so" that civetweb finds when it loads OpenSSL at run time.
 *
 * Debian's civetweb 1.15 is built against the OpenSSL 1.1 API and looks up, by name,
 * SSL_get_peer_certificate, which OpenSSL 3 no longer exports (it became a macro for
 * SSL_get1_peer_certificate). civetweb then calls the null pointer it found after every TLS
 * handshake, which crashes the server. This object defines that one function; everything else
 * civetweb looks up is found in its dependency, the real libssl.so.3 (dlsym searches an object's
 * dependencies). http/src/civetweb_ssl_compat.cpp loads it before civetweb loads "libssl.so":
 * glibc's dlopen returns an already loaded object whose soname matches the name asked for. */
#include <openssl/ssl.h>

#undef SSL_get_peer_certificate
X509* SSL_get_peer_certificate(const SSL* ssl);

/* Both return a reference the caller frees, as civetweb does. */
X509* SSL_get_peer_certificate(const SSL* ssl) { return SSL_get1_peer_certificate(ssl); }
