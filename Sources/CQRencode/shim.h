// libqrencode (Debian's libqrencode-dev): the QR code an authenticator app scans to enroll a TOTP factor.
#include <qrencode.h>
