// A pixel shader that returns its interpolated colour, darkened a little: the source of
// samples/ps_color.dxbc (`shaderscope asm samples/ps_color.asm -o samples/ps_color.dxbc`).
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// COLOR                    0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
mul o0.xyz, v0.xyzx, l(0.900000, 0.900000, 0.900000, 0.000000)
mov o0.w, v0.w
ret 
