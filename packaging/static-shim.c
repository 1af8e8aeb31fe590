// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * static-shim.c - linked into the static build only (make static: build/static/jitterscope),
 * never into build/jitterscope. See docs/INSTALL.md ("The static binary").
 *
 * 1. The --listen server. out_listen.c loads libmicrohttpd with dlopen("libmicrohttpd.so.12")
 *    so that a dynamic jitterscope maps the HTTP and TLS libraries only when asked to listen.
 *    A static binary has no shared library to load, and one loaded into it would bring a
 *    second C library: the static link wraps dlopen, dlsym, dlclose and dlerror
 *    (-Wl,--wrap=...) with these, which hand out the libmicrohttpd linked in instead.
 *    Anything else asked for is not found, as on a machine without it.
 *
 * 2. p11-kit. Debian's libmicrohttpd is built with HTTPS support, so its static archive
 *    needs GnuTLS, and GnuTLS's needs p11-kit, of which Debian ships no static archive.
 *    jitterscope serves plain HTTP only and never asks GnuTLS for a PKCS #11 token: the
 *    p11-kit functions GnuTLS refers to are defined here to fail as p11-kit does when no
 *    module is configured (no modules, no URI, no PIN).
 */
#include <dlfcn.h>
#include <microhttpd.h>
#include <p11-kit/p11-kit.h>
#include <p11-kit/pin.h>
#include <p11-kit/uri.h>
#include <stddef.h>
#include <string.h>

/* ---- dlopen: libmicrohttpd is linked in ---------------------------------------------- */

#define MHD_PREFIX "libmicrohttpd.so"

void *__wrap_dlopen(const char *file, int mode);
void *__wrap_dlsym(void *handle, const char *name);
int __wrap_dlclose(void *handle);
char *__wrap_dlerror(void);

static char mhd_handle; /* its address is the handle */
static __thread const char *dl_error;

static const struct {
	const char *name;
	void *fn;
} mhd_syms[] = {
	{ "MHD_create_response_from_buffer", (void *)MHD_create_response_from_buffer },
	{ "MHD_add_response_header", (void *)MHD_add_response_header },
	{ "MHD_queue_response", (void *)MHD_queue_response },
	{ "MHD_destroy_response", (void *)MHD_destroy_response },
	{ "MHD_start_daemon", (void *)MHD_start_daemon },
	{ "MHD_stop_daemon", (void *)MHD_stop_daemon },
};

void *__wrap_dlopen(const char *file, int mode)
{
	(void)mode;
	if (file && !strncmp(file, MHD_PREFIX, strlen(MHD_PREFIX)))
		return &mhd_handle;
	dl_error = "static jitterscope: no shared libraries (only libmicrohttpd, linked in)";
	return NULL;
}

void *__wrap_dlsym(void *handle, const char *name)
{
	if (handle == &mhd_handle)
		for (size_t i = 0; i < sizeof(mhd_syms) / sizeof(mhd_syms[0]); i++)
			if (!strcmp(name, mhd_syms[i].name))
				return mhd_syms[i].fn;
	dl_error = "static jitterscope: symbol not linked in";
	return NULL;
}

int __wrap_dlclose(void *handle)
{
	return handle == &mhd_handle ? 0 : -1;
}

char *__wrap_dlerror(void)
{
	const char *e = dl_error;

	dl_error = NULL;
	return (char *)e;
}

/* ---- p11-kit: no PKCS #11 module, ever ------------------------------------------------ */

static const char p11_none[] = "PKCS #11 is not available in the static jitterscope";

const char *p11_kit_message(void)
{
	return p11_none;
}

const char *p11_kit_strerror(CK_RV rv)
{
	(void)rv;
	return p11_none;
}

char *p11_kit_config_option(CK_FUNCTION_LIST *module, const char *option)
{
	(void)module;
	(void)option;
	return NULL;
}

CK_FUNCTION_LIST **p11_kit_modules_load(const char *reserved, int flags)
{
	(void)reserved;
	(void)flags;
	return NULL;
}

CK_FUNCTION_LIST *p11_kit_module_load(const char *module_path, int flags)
{
	(void)module_path;
	(void)flags;
	return NULL;
}

CK_RV p11_kit_module_finalize(CK_FUNCTION_LIST *module)
{
	(void)module;
	return CKR_ARGUMENTS_BAD;
}

void p11_kit_module_release(CK_FUNCTION_LIST *module)
{
	(void)module;
}

char *p11_kit_module_get_name(CK_FUNCTION_LIST *module)
{
	(void)module;
	return NULL;
}

int p11_kit_module_get_flags(CK_FUNCTION_LIST *module)
{
	(void)module;
	return 0;
}

size_t p11_kit_space_strlen(const unsigned char *string, size_t max_length)
{
	while (max_length > 0 && string[max_length - 1] == ' ')
		max_length--;
	return max_length;
}

char *p11_kit_space_strdup(const unsigned char *string, size_t max_length)
{
	return strndup((const char *)string, p11_kit_space_strlen(string, max_length));
}

P11KitUri *p11_kit_uri_new(void)
{
	return NULL;
}

void p11_kit_uri_free(P11KitUri *uri)
{
	(void)uri;
}

int p11_kit_uri_parse(const char *string, P11KitUriType uri_type, P11KitUri *uri)
{
	(void)string;
	(void)uri_type;
	(void)uri;
	return P11_KIT_URI_NOT_FOUND;
}

int p11_kit_uri_format(P11KitUri *uri, P11KitUriType uri_type, char **string)
{
	(void)uri;
	(void)uri_type;
	(void)string;
	return P11_KIT_URI_NOT_FOUND;
}

CK_ATTRIBUTE_PTR p11_kit_uri_get_attribute(P11KitUri *uri, CK_ATTRIBUTE_TYPE attr_type)
{
	(void)uri;
	(void)attr_type;
	return NULL;
}

CK_ATTRIBUTE_PTR p11_kit_uri_get_attributes(P11KitUri *uri, CK_ULONG *n_attrs)
{
	(void)uri;
	if (n_attrs)
		*n_attrs = 0;
	return NULL;
}

int p11_kit_uri_set_attribute(P11KitUri *uri, CK_ATTRIBUTE_PTR attr)
{
	(void)uri;
	(void)attr;
	return P11_KIT_URI_NOT_FOUND;
}

CK_INFO_PTR p11_kit_uri_get_module_info(P11KitUri *uri)
{
	(void)uri;
	return NULL;
}

CK_TOKEN_INFO_PTR p11_kit_uri_get_token_info(P11KitUri *uri)
{
	(void)uri;
	return NULL;
}

int p11_kit_uri_match_module_info(const P11KitUri *uri, const CK_INFO *info)
{
	(void)uri;
	(void)info;
	return 0;
}

int p11_kit_uri_match_token_info(const P11KitUri *uri, const CK_TOKEN_INFO *token_info)
{
	(void)uri;
	(void)token_info;
	return 0;
}

const char *p11_kit_uri_get_pin_source(const P11KitUri *uri)
{
	(void)uri;
	return NULL;
}

const char *p11_kit_uri_get_pin_value(const P11KitUri *uri)
{
	(void)uri;
	return NULL;
}

P11KitPin *p11_kit_pin_new_for_string(const char *value)
{
	(void)value;
	return NULL;
}

P11KitPin *p11_kit_pin_request(const char *pin_source, P11KitUri *pin_uri,
			       const char *pin_description, P11KitPinFlags pin_flags)
{
	(void)pin_source;
	(void)pin_uri;
	(void)pin_description;
	(void)pin_flags;
	return NULL;
}

P11KitPin *p11_kit_pin_file_callback(const char *pin_source, P11KitUri *pin_uri,
				     const char *pin_description, P11KitPinFlags pin_flags,
				     void *callback_data)
{
	(void)pin_source;
	(void)pin_uri;
	(void)pin_description;
	(void)pin_flags;
	(void)callback_data;
	return NULL;
}

int p11_kit_pin_register_callback(const char *pin_source, p11_kit_pin_callback callback,
				  void *callback_data, p11_kit_pin_destroy_func callback_destroy)
{
	(void)pin_source;
	(void)callback;
	(void)callback_data;
	(void)callback_destroy;
	return -1;
}

void p11_kit_pin_unregister_callback(const char *pin_source, p11_kit_pin_callback callback,
				     void *callback_data)
{
	(void)pin_source;
	(void)callback;
	(void)callback_data;
}

const unsigned char *p11_kit_pin_get_value(P11KitPin *pin, size_t *length)
{
	(void)pin;
	if (length)
		*length = 0;
	return NULL;
}

size_t p11_kit_pin_get_length(P11KitPin *pin)
{
	(void)pin;
	return 0;
}

void p11_kit_pin_unref(P11KitPin *pin)
{
	(void)pin;
}
